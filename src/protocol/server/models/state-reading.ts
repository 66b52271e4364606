/** Tolerant readers of an arbitrary JSON state: absent or odd values read as null. */

import { isRecord } from '../../../core/json-value.js';

/** The value at a key path, or undefined. */
export function at(state: unknown, ...keys: string[]): unknown {
  let v: unknown = state;
  for (const k of keys) {
    if (!isRecord(v) || !Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

/** A number (numeric strings such as "12.50" accepted), or null. */
export function numberAt(state: unknown, ...keys: string[]): number | null {
  const v = at(state, ...keys);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** A count: a number, or the length of an array (e.g. a list of tool errors), or null. */
export function countAt(state: unknown, ...keys: string[]): number | null {
  const v = at(state, ...keys);
  if (Array.isArray(v)) return v.length;
  return numberAt(state, ...keys);
}

export function booleanAt(state: unknown, ...keys: string[]): boolean | null {
  const v = at(state, ...keys);
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no') return false;
  return null;
}

/** Every string (and number) inside a value, lower-cased and joined by spaces. */
export function textOf(value: unknown): string {
  const parts: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 12) return;
    if (typeof v === 'string') parts.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') parts.push(String(v));
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isRecord(v)) for (const k of Object.keys(v)) walk(v[k], depth + 1);
  };
  walk(value, 0);
  return parts.join(' ').toLowerCase();
}

/**
 * How many cue phrases occur in lower-cased text (each phrase counted once). Single words
 * match on word boundaries; phrases with spaces match as substrings.
 */
export function countCues(text: string, cues: readonly string[]): number {
  let n = 0;
  for (const cue of cues) {
    if (cue.includes(' ') ? text.includes(cue) : wordPattern(cue).test(text)) n++;
  }
  return n;
}

const PATTERNS = new Map<string, RegExp>();

/** A cue word at a word start ("refund" matches "refunded"), compiled once. */
function wordPattern(cue: string): RegExp {
  let re = PATTERNS.get(cue);
  if (re === undefined) {
    re = new RegExp(`(^|[^a-z0-9])${cue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
    PATTERNS.set(cue, re);
  }
  return re;
}

/** Lower-case word stems of at least three letters, minus very common words. */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []).filter((w) => !STOP_WORDS.has(w)).map(stem);
}

/** A crude suffix stripper so "parcels", "charged" and "refunding" meet "parcel", "charge", "refund". */
function stem(w: string): string {
  if (w.length < 5) return w;
  for (const suffix of ['ing', 'ed', 'es', 's', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) return w.slice(0, -suffix.length);
  }
  return w;
}

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'this',
  'that',
  'are',
  'was',
  'were',
  'not',
  'but',
  'has',
  'have',
  'had',
  'you',
  'your',
  'our',
  'from',
  'its',
  'can',
  'all',
  'any',
  'may',
  'will',
  'should',
  'would',
  'could',
  'into',
  'than',
  'then',
  'them',
  'they',
  'their',
  'there',
  'what',
  'which',
  'who',
  'how',
  'does',
  'did',
  'been',
  'being',
  'more',
  'less',
  'also',
  'only',
]);
