import { describe, expect, it } from 'vitest';
import { longFunctions, longFunctionsInText } from '../scripts/long-functions.js';

/** The longest a function in src may be: one a reader can hold at once. */
const MAX_FUNCTION_LINES = 120;

describe('function length', () => {
  it(`keeps every function in src at ${MAX_FUNCTION_LINES} lines or fewer`, () => {
    const tooLong = longFunctions(MAX_FUNCTION_LINES).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(tooLong).toEqual([]);
  });

  it('counts declarations, arrows, methods and nested functions by their own lines', () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `export function outer() {`,
      body(3),
      `  const inner = () => {`,
      body(4),
      `  };`,
      `}`,
      `class Store {`,
      `  open() {`,
      body(2),
      `  }`,
      `}`,
      `const short = () => 1;`,
    ].join('\n');
    expect(longFunctionsInText('x.ts', text, 3)).toEqual([
      { file: 'x.ts', line: 1, name: 'outer', lines: 11 },
      { file: 'x.ts', line: 5, name: 'inner', lines: 6 },
      { file: 'x.ts', line: 13, name: 'Store.open', lines: 4 },
    ]);
  });
});
