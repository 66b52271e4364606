import { DecidekitError } from '../core/errors.js';

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A run id that sorts by creation time and stays short: `20261130-041512-ab12` (UTC date,
 * time, four random hex digits). `random` gives the two random bytes.
 */
export function createRunId(createdAt: string, random: Uint8Array): string {
  const ms = Date.parse(createdAt);
  if (!Number.isFinite(ms))
    throw new DecidekitError(
      'invalid_run',
      `cannot create run: createdAt ${JSON.stringify(createdAt)} is not an ISO 8601 time`,
    );
  const d = new Date(ms);
  const date = `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}`;
  const time = `${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
  const suffix = [...random.slice(0, 2)].map((b) => b.toString(16).padStart(2, '0')).join('');
  if (suffix.length !== 4) throw new RangeError('createRunId needs two random bytes');
  return `${date}-${time}-${suffix}`;
}
