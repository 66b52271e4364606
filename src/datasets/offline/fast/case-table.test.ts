import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, formatProblem } from '../../../core/errors.js';
import type { OfflineCase } from '../../../core/offline/case.js';
import { ByteKeys } from './byte-keys.js';
import { OfflineCaseTable } from './case-table.js';
import { loadOfflineDataset, type OfflineDataset } from '../dataset.js';
import { readResults, scoreResults } from '../results.js';
import { tempFolderRemovedAfterAll } from '../../test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-case-table-');
let n = 0;
function file(lines: readonly (string | object)[]): string {
  const path = join(dir, `t${n++}.jsonl`);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return path;
}

describe('ByteKeys', () => {
  it('gives every key back as a string at once, ASCII or not', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'Z', '-', '7', 'é', '😀'), maxLength: 5 }), {
          maxLength: 40,
        }),
        (keys) => {
          const k = new ByteKeys(2, 4);
          for (const key of keys) {
            const b = Buffer.from(key, 'utf8');
            k.add(b, 0, b.length);
          }
          return JSON.stringify(k.strings()) === JSON.stringify(keys);
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });

  it('finds every key it holds and no other, across index growth', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 6 }), { maxLength: 80 }),
        fc.string({ maxLength: 6 }),
        (keys, other) => {
          const k = new ByteKeys(2, 4);
          keys.forEach((key, i) => {
            expect(k.addString(key)).toBe(i);
            if (i === 3) expect(k.indexOfString(keys[0]!)).toBe(0); // builds the index part way
          });
          keys.forEach((key, i) => {
            expect(k.indexOfString(key)).toBe(i);
            expect(k.toString(i)).toBe(key);
          });
          expect(k.indexOfString(other)).toBe(keys.indexOf(other));
        },
      ),
      { seed: 42, numRuns: 100 },
    );
  });

  it('compares keys in byte order', () => {
    const k = new ByteKeys();
    k.addString('case-2');
    const b = (s: string) => Buffer.from(s);
    expect(k.compare(0, b('case-10'), 0, 7)).toBeGreaterThan(0);
    expect(k.compare(0, b('case-3'), 0, 6)).toBeLessThan(0);
    expect(k.compare(0, b('case-2'), 0, 6)).toBe(0);
    expect(k.compare(0, b('case-'), 0, 5)).toBeGreaterThan(0);
  });
});

describe('OfflineCaseTable', () => {
  it('reads back every case it was given, ids with lone surrogates and -0 ranges included', () => {
    const cases: OfflineCase[] = [
      { id: 'b', kind: 'yes_no', correct: true, prompt: 'P?' },
      { id: '\ud800', kind: 'yes_no', correct: false },
      { id: '\ud801', kind: 'score', scoreMin: -0, scoreMax: 1, correct: -0 },
      { id: 'a', kind: 'score', scoreMin: 0, scoreMax: 1, correct: 1, group: 'g', field: 'f' },
      { id: 'é', kind: 'choice', options: ['x', 'y'], correct: 'y', correctIndex: 1, prompt: 'P?' },
    ];
    const t = new OfflineCaseTable(1);
    cases.forEach((c, i) => t.pushCase(c, i + 1));
    cases.forEach((c, i) => {
      expect(t.caseAt(i)).toEqual(c);
      expect(t.indexOfId(c.id)).toBe(i);
    });
    expect(Object.is(t.scoreMin(2), -0) && Object.is(t.scoreMin(3), 0)).toBe(true);
    expect(t.indexOfId('\ud802')).toBe(-1);
    expect(t.indexOfId('\ufffd')).toBe(-1);
  });
});

describe('datasets and results out of order', () => {
  const ids = ['m', 'c', 'x', 'a', 'q', 'b'];

  it('finds duplicate ids wherever they are, with the line of the first', async () => {
    const path = file([
      ...ids.map((id) => ({ id, kind: 'yes_no', correct: true })),
      { id: 'q', kind: 'yes_no', correct: false },
    ]);
    const err = (await loadOfflineDataset(path).catch((e: unknown) => e)) as InvalidInputError;
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.problems.map(formatProblem)).toEqual([`${path}:7 case q: duplicate id "q" (first on line 5)`]);
  });

  it('matches results in any order to their cases, and reports an unknown or repeated one', async () => {
    const dataset = await loadOfflineDataset(file(ids.map((id, i) => ({ id, kind: 'yes_no', correct: i % 2 === 0 }))));
    const order = ['q', 'm', 'b', 'a', 'c'];
    const seen: string[] = [];
    const r = await readResults(
      file(order.map((id) => ({ case_id: id, model: 'm', decision: { probability: 0.8 } }))),
      dataset,
      (res, c) => {
        expect(c.id).toBe(res.caseId);
        expect(c).toBe(dataset.byId.get(res.caseId));
        seen.push(c.id);
      },
    );
    expect(seen).toEqual(order);
    expect(r.missing).toBe(1);
    const bad = file([...order, 'zz', 'm'].map((id) => ({ case_id: id, model: 'm', decision: { probability: 0.8 } })));
    const err = (await readResults(bad, dataset, () => {}).catch((e: unknown) => e)) as InvalidInputError;
    expect(err.problems.map((p) => [p.line, p.caseId])).toEqual([
      [6, 'zz'],
      [7, 'm'],
    ]);
  });

  it('scores a dataset made by hand from its cases like the loaded one', async () => {
    const loaded = await loadOfflineDataset(file(ids.map((id, i) => ({ id, kind: 'yes_no', correct: i % 3 === 0 }))));
    const byHand: OfflineDataset = {
      path: loaded.path,
      cases: [...loaded.cases],
      byId: new Map(loaded.cases.map((c) => [c.id, c])),
    };
    const results = file(ids.map((id, i) => ({ case_id: id, model: 'm', decision: { probability: i / 6 } })));
    expect((await scoreResults(results, byHand)).summary).toEqual((await scoreResults(results, loaded)).summary);
  });
});
