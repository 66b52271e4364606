import { afterEach, describe, expect, it, vi } from 'vitest';
import { canonicalJson } from '../canonical-json.js';
import { createSeededRandom } from '../seeded-random.js';
import { createRunConfig } from './test-support/run-fixtures.js';
import { isSameWork, workIdentityOf } from './run-work.js';
import type { RunConfig } from './run.js';

const ids = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `case-${from + i}`);

describe('isSameWork', () => {
  afterEach(() => vi.restoreAllMocks());

  it('tells two runs over one case list in one order apart without sorting their case ids', () => {
    const a = createRunConfig({ caseIds: ids(5000) });
    const b = createRunConfig({ caseIds: ids(5000), model: 'other' });
    const sort = vi.spyOn(Array.prototype, 'sort');
    expect(isSameWork(a, b)).toBe(true);
    expect(isSameWork(a, createRunConfig({ caseIds: ids(5000), questionSet: { 'x/y': 'abc' } }))).toBe(false);
    const sorted = sort.mock.contexts.filter((array) => (array as unknown[]).length >= 5000);
    expect(sorted).toEqual([]);
  });

  it("agrees with the work's canonical identity, whatever the case order, duplicates, dataset or questions", () => {
    const random = createSeededRandom(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const configOf = (): RunConfig => {
      const base = ids(3 + Math.floor(random() * 3));
      const caseIds = pick([base, [...base].reverse(), [...base, base[0]!], base.slice(1)]);
      return createRunConfig({
        caseIds,
        questionSet: pick([{ 'a/q': '1' }, { 'a/q': '2' }, { 'a/q': '1', 'b/q': '1' }]),
        dataset: { ...createRunConfig().dataset, revision: pick(['r1', 'r2', null]) },
      });
    };
    for (let i = 0; i < 400; i++) {
      const [a, b] = [configOf(), configOf()];
      expect(isSameWork(a, b)).toBe(canonicalJson(workIdentityOf(a)) === canonicalJson(workIdentityOf(b)));
    }
  });
});
