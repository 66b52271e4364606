import { describe, expect, it } from 'vitest';
import { longFunctions, longFunctionsInText } from '../scripts/long-functions.js';

/** The longest a function in src may be: one a reader can hold at once. */
const MAX_FUNCTION_LINES = 120;

/** Functions still over the limit, being split; an entry is removed when its function is. */
const NOT_YET_SPLIT = ['src/app/audit/execute-audit.ts executeAudit', 'src/app/probe/execute-probe.ts probe'];

describe('function length', () => {
  it(`keeps every function in src at ${MAX_FUNCTION_LINES} lines or fewer`, () => {
    const tooLong = longFunctions(MAX_FUNCTION_LINES);
    const unexpected = tooLong
      .filter((f) => !NOT_YET_SPLIT.includes(`${f.file} ${f.name}`))
      .map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(unexpected).toEqual([]);
    // An entry whose function is short now (or gone) is dropped from the list, so it only shrinks.
    const stillLong = new Set(tooLong.map((f) => `${f.file} ${f.name}`));
    expect(NOT_YET_SPLIT.filter((entry) => !stillLong.has(entry))).toEqual([]);
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
