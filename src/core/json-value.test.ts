import { describe, expect, it } from 'vitest';
import { preview } from './json-value.js';

describe('preview', () => {
  it('shows non-finite numbers as themselves, alone or nested', () => {
    expect(preview(Number.POSITIVE_INFINITY)).toBe('Infinity (out of range: beyond ±1.8e308)');
    expect(preview(Number.NEGATIVE_INFINITY)).toBe('-Infinity (out of range: beyond ±1.8e308)');
    expect(preview(Number.NaN)).toBe('NaN');
    expect(preview([0.5, JSON.parse('1e400') as number, { a: Number.NaN }])).toBe('[0.5,Infinity,{"a":NaN}]');
  });

  it('says a missing key in words, never "undefined"', () => {
    expect(preview(undefined)).toBe('nothing (the key is missing)');
    expect(preview({}['absent' as keyof object])).not.toContain('undefined');
  });

  it('renders everything else as JSON.stringify does', () => {
    const values: unknown[] = [
      null,
      true,
      0.25,
      'text',
      ['a', null, 2],
      { a: 1, b: { c: [true] } },
      { d: new Date(0) },
    ];
    for (const v of values) expect(preview(v, 200)).toBe(JSON.stringify(v));
    expect(preview([undefined, { skip: undefined }])).toBe('[null,{}]');
  });

  it('keeps a string holding the word Infinity a string', () => {
    expect(preview({ b: 'Infinity' })).toBe('{"b":"Infinity"}');
  });

  it('shows a bigint (a Parquet INT64) instead of giving up on the whole value', () => {
    expect(preview({ n: 5n })).toBe('{"n":5}');
  });

  it('cuts long values to one short line', () => {
    expect(preview('x'.repeat(100), 10)).toBe('"xxxxxxxx…');
    expect(preview('a\n  b')).toBe('"a\\n b"');
  });
});
