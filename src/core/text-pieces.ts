/**
 * Small pieces of text gathered into pieces of about `size` characters (default 32 Ki), so a
 * long document is written in few writes without ever being one string. Pieces stay below
 * V8's large-object size (128 KiB): a larger piece is allocated straight into the old
 * generation and stays there, garbage, until the next full collection (1 MiB pieces let
 * writing a 400 MB document pile up ~150 MB of them, measured in BENCHMARKS.md).
 */
const PIECE_CHARS = 1 << 15;

export function* piecesOf(chunks: Iterable<string>, size = PIECE_CHARS): Generator<string> {
  let pending: string[] = [];
  let length = 0;
  for (const chunk of chunks) {
    pending.push(chunk);
    length += chunk.length;
    if (length >= size) {
      yield pending.join('');
      pending = [];
      length = 0;
    }
  }
  if (pending.length > 0) yield pending.join('');
}
