/**
 * A digest of one line's bytes, kept by pass 1 of a case file for every case it checked and
 * compared by pass 2 with the line it reads: a line edited in place after the check (the same
 * length, a gold label changed) is then caught, not scored. 52 bits of the line's sha256, so
 * it fits a double exactly and a Float64Array holds one per case.
 */
import { createHash } from 'node:crypto';

export function lineDigest(bytes: Buffer, start: number, end: number): number {
  const hash = createHash('sha256').update(bytes.subarray(start, end)).digest();
  return hash.readUIntBE(0, 6) * 16 + (hash[6]! >> 4);
}
