/**
 * A digest of one line's bytes, kept by pass 1 of a case file for every case it checked and
 * compared by pass 2 with the line it reads: a line edited in place after the check (the same
 * length, a gold label changed) is then caught, not scored. 52 bits of the line's sha256, so
 * it fits a double exactly and a Float64Array holds one per case.
 */
import * as crypto from 'node:crypto';

/** The one-shot hash (Node 20.12 and later): no Hash object a line. */
const oneShot: ((algorithm: string, data: Buffer, encoding: 'buffer') => Buffer) | undefined = (
  crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'buffer') => Buffer }
).hash;

export function lineDigest(bytes: Buffer, start: number, end: number): number {
  const line = bytes.subarray(start, end);
  const hash = oneShot?.('sha256', line, 'buffer') ?? crypto.createHash('sha256').update(line).digest();
  return hash.readUIntBE(0, 6) * 16 + (hash[6]! >> 4);
}
