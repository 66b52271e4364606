import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteCursor, encodeKeys } from './fast-json.js';

function cursor(text: string): ByteCursor {
  const c = new ByteCursor();
  const b = Buffer.from(text, 'utf8');
  c.reset(b, 0, b.length);
  return c;
}

/** The number the cursor reads from `text` when it is the whole input, or NaN. */
function readNumber(text: string): number {
  const c = cursor(text);
  const v = c.number();
  return c.atEnd() ? v : NaN;
}

describe('ByteCursor.number', () => {
  it('reads numbers exactly as JSON.parse does, fast path and fallback alike', () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const numberText = fc
      .record({
        minus: fc.boolean(),
        int: fc.oneof(
          fc.constant('0'),
          fc.tuple(fc.integer({ min: 1, max: 9 }), digits(0, 19)).map(([a, b]) => `${a}${b}`),
        ),
        frac: fc.option(digits(1, 25), { nil: undefined }),
        exp: fc.option(
          fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)).map((p) => p.join('')),
          { nil: undefined },
        ),
      })
      .map(
        ({ minus, int, frac, exp }) => `${minus ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}${exp ?? ''}`,
      );
    fc.assert(
      fc.property(numberText, (text) => {
        expect(Object.is(readNumber(text), JSON.parse(text))).toBe(true);
      }),
      { seed: 42, numRuns: 3000 },
    );
  });

  it('reads short decimals of the usual kind exactly', () => {
    for (const text of [
      '0.1',
      '0.3',
      '0.851',
      '0.000123',
      '-0',
      '-0.0',
      '1.0',
      '123456789012345',
      '0.1000000000000000055511151231257827',
      '9007199254740993',
      '1e-7',
      '5E+2',
    ]) {
      expect(Object.is(readNumber(text), JSON.parse(text))).toBe(true);
    }
  });

  it('bails out on what JSON does not allow', () => {
    for (const text of ['01', '1.', '.5', '+1', '1e', '1e+', '-', '1x', 'NaN', 'Infinity', '0x10', '1.2.3']) {
      expect(readNumber(text)).toBeNaN();
    }
  });
});

describe('ByteCursor strings and literals', () => {
  it('reads a plain string and decodes UTF-8 as JSON.parse does', () => {
    const c = cursor(' "héllo ☃ 😀" ');
    expect(c.string()).toBe(true);
    expect(c.stringValue()).toBe('héllo ☃ 😀');
    expect(c.strAscii).toBe(false);
    expect(c.atEnd()).toBe(true);
  });

  it('bails out on escapes, control characters and unterminated strings', () => {
    expect(cursor('"a\\"b"').string()).toBe(false);
    expect(cursor('"a\\u0041"').string()).toBe(false);
    expect(cursor('"tab\there"').string()).toBe(false);
    expect(cursor('"open').string()).toBe(false);
  });

  it('matches keys by their bytes', () => {
    const keys = encodeKeys(['id', 'kind', 'ïd']);
    expect(cursor('"kind" : 1').key(keys)).toBe(1);
    expect(cursor('"ïd":1').key(keys)).toBe(2);
    expect(cursor('"other":1').key(keys)).toBe(-1);
    expect(cursor('"id" 1').key(keys)).toBe(-1);
  });

  it('reads true, false and null and nothing else', () => {
    expect(cursor(' true').boolean()).toBe(1);
    expect(cursor('false').boolean()).toBe(0);
    expect(cursor('fals').boolean()).toBe(-1);
    expect(cursor('nul').null()).toBe(false);
    const c = cursor(' null ,');
    expect(c.null()).toBe(true);
    expect(c.eat(0x2c)).toBe(true);
  });
});
