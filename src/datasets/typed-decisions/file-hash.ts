import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { refuseIrregularFile } from '../input-file.js';

/** sha256 (lower-case hex) and size of a file, streamed. */
export async function sha256File(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  await refuseIrregularFile(path);
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
