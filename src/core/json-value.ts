/** Narrowing helpers for values that came out of JSON.parse. Pure. */

export type JsonRecord = Record<string, unknown>;

export function isRecord(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

export function isProbability(v: unknown): v is number {
  return typeof v === 'number' && v >= 0 && v <= 1;
}

export function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

/**
 * A short, single-line rendering of a JSON value for error messages. Numbers JSON cannot
 * write show as themselves, not as JSON.stringify's `null`: `1e400` in a file parses to
 * Infinity (said to be out of range), and a Parquet double may hold NaN.
 */
export function preview(v: unknown, max = 60): string {
  // Only a key that is absent reads as undefined: say so in words, not JavaScript's.
  if (v === undefined) return 'nothing (the key is missing)';
  if (typeof v === 'number' && !Number.isFinite(v))
    return Number.isNaN(v) ? 'NaN' : `${String(v)} (out of range: beyond ±1.8e308)`;
  let s: string;
  try {
    s = render(v) ?? String(v);
  } catch {
    s = String(v);
  }
  s = s.replace(/\s+/g, ' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** JSON.stringify, except that non-finite numbers and bigints keep their value; undefined when JSON leaves the value out. */
function render(v: unknown): string | undefined {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v !== 'object' || v === null || typeof (v as { toJSON?: unknown }).toJSON === 'function')
    return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((item) => render(item) ?? 'null').join(',')}]`;
  const parts: string[] = [];
  for (const [key, item] of Object.entries(v)) {
    const text = render(item);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
