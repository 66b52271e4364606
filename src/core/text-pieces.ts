/**
 * Small pieces of text gathered into pieces of about `size` characters (default 1 Mi), so a
 * long document is written in few writes without ever being one string.
 */
export function* piecesOf(chunks: Iterable<string>, size = 1 << 20): Generator<string> {
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
