import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError, formatProblem } from '../../../core/errors.js';
import type { OfflineResult } from '../../../core/offline/case.js';
import { loadOfflineDataset, type OfflineDataset } from '../dataset.js';
import { readResults, scoreResults } from '../results.js';
import type { ResultsSplitOptions } from './results-split.js';
import { preparseResultLines, ResultBatch } from './results-preparse.js';
import { tempFolderRemovedAfterAll } from '../../test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-results-split-');

const CASES = 3000;
const OPTIONS = ['allow', 'flag', 'remove'];

function datasetLines(): string[] {
  const out: string[] = [];
  for (let i = 0; i < CASES; i++) {
    const id = `c-${String(i).padStart(5, '0')}`;
    if (i % 3 === 0) out.push(JSON.stringify({ id, kind: 'yes_no', correct: i % 2 === 0 }));
    else if (i % 3 === 1) out.push(JSON.stringify({ id, kind: 'choice', options: OPTIONS, correct: OPTIONS[i % 3] }));
    else out.push(JSON.stringify({ id, kind: 'score', score_min: 0, score_max: 10, correct: i % 11 }));
  }
  return out;
}

/** A valid result for case i, in one of several shapes. */
function validLine(i: number, model = 'm'): string {
  const case_id = `c-${String(i).padStart(5, '0')}`;
  const extra = i % 4 === 0 ? {} : { cost_usd: (i % 7) / 1000, latency_ms: 100 + (i % 13) };
  if (i % 3 === 0)
    return JSON.stringify({ case_id, model, decision: { probability: ((i * 37) % 101) / 100 }, ...extra });
  if (i % 3 === 1) {
    const a = ((i * 13) % 50) / 100;
    const probs = [a, 0.2, Math.round((0.8 - a) * 100) / 100];
    if (i % 2 === 0)
      return JSON.stringify({
        case_id,
        model,
        decision: { picked: OPTIONS[i % 3], probabilities: { remove: probs[2], allow: probs[0], flag: probs[1] } },
        ...extra,
      });
    return JSON.stringify({ case_id, model, decision: { probabilities: probs }, ...extra });
  }
  return JSON.stringify({
    model,
    case_id,
    decision: i % 2 === 0 ? { value: i % 11, confidence: i % 5 === 0 ? null : 0.5 } : { value: (i % 100) / 10 },
    ...extra,
  });
}

/** Results with a problem every so often, spread through the file (both halves). */
function resultsLines(withProblems: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < CASES; i++) {
    if (i === 40) out.push('');
    if (i === 41) out.push('   \t');
    let line = validLine(i);
    if (i % 250 === 3) line += '\r';
    if (withProblems && i % 97 === 5) {
      switch ((i / 97) | 0) {
        case 0:
          line = '{"case_id": "c-00005", "model": "m", "decision": {"probability": 1.5}}';
          break;
        case 1:
          line = '{not json';
          break;
        case 2:
          line = validLine(i - 1);
          break; // duplicate
        case 3:
          line = validLine(i, 'other-model');
          break;
        case 4:
          line = '{"case_id": "nope", "model": "m", "decision": {"probability": 0.5}}';
          break;
        case 5:
          line = line.replace('"c-', '"c\\u002d');
          break; // an escape: valid, slow path
        case 6:
          line = JSON.stringify({
            case_id: `c-${String(i).padStart(5, '0')}`,
            model: 'm',
            decision: { probabilities: [0.9, 0.9, 0.9] },
          });
          break;
        case 7:
          line = JSON.stringify({ case_id: `c-${String(i).padStart(5, '0')}`, model: 'm', decision: { value: 99 } });
          break;
        case 8:
          line = JSON.stringify({
            case_id: `c-${String(i).padStart(5, '0')}`,
            model: 'm',
            decision: { picked: 'nah', probabilities: [0.2, 0.3, 0.5] },
          });
          break;
        case 9:
          line = JSON.stringify({
            case_id: `c-${String(i).padStart(5, '0')}`,
            model: 'm',
            decision: { probability: 0.5 },
            cost_usd: -1,
          });
          break;
        case 10:
          line = JSON.stringify({
            case_id: `c-${String(i).padStart(5, '0')}`,
            model: 'm',
            decision: { probabilities: { allow: 0.5, flag: 0.5, remove: 0, extra: 0 } },
          });
          break;
        default:
          line = validLine(i);
      }
    }
    out.push(line);
  }
  return out;
}

let dataset: OfflineDataset;
let valid: string;
let invalid: string;
let bom: string;
beforeAll(async () => {
  const d = join(dir, 'dataset.jsonl');
  writeFileSync(d, datasetLines().join('\n') + '\n');
  dataset = await loadOfflineDataset(d);
  valid = join(dir, 'valid.jsonl');
  writeFileSync(valid, resultsLines(false).join('\n')); // no final newline
  invalid = join(dir, 'invalid.jsonl');
  writeFileSync(invalid, resultsLines(true).join('\n') + '\n');
  bom = join(dir, 'bom.jsonl');
  writeFileSync(bom, '\ufeff' + resultsLines(false).join('\r\n') + '\r\n');
});

async function read(path: string, split: ResultsSplitOptions): Promise<unknown> {
  const seen: [OfflineResult, string][] = [];
  try {
    const r = await readResults(path, dataset, (result, c) => seen.push([result, c.id]), split);
    return { r, seen };
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    return { problems: err.problems.map(formatProblem), omitted: err.omitted, seenBeforeFailing: seen.length };
  }
}

const SHARES = [0, 0.1, 0.5, 0.93];

describe('results split between two readers', () => {
  it('gives the same results, in file order, as one reader, wherever the file is split', async () => {
    for (const path of [valid, bom]) {
      const one = await read(path, { mode: 'off' });
      expect((one as { seen: unknown[] }).seen).toHaveLength(CASES);
      for (const mainShare of SHARES) expect(await read(path, { mode: 'inline', mainShare })).toEqual(one);
    }
  });

  it('reports the same problems, in the same order with the same lines, as one reader', async () => {
    const one = (await read(invalid, { mode: 'off' })) as { problems: string[] };
    expect(one.problems.length).toBeGreaterThanOrEqual(10);
    expect(one.problems.join('\n')).toContain('duplicate result for this case');
    expect(one.problems.join('\n')).toContain('differs from "m"');
    for (const mainShare of SHARES) expect(await read(invalid, { mode: 'inline', mainShare })).toEqual(one);
  });

  it('reports a line that is not UTF-8 wherever the file is split, as one reader does', async () => {
    const lines = resultsLines(false).map((l) => Buffer.from(l));
    const at = Math.floor(lines.length * 0.97); // in the part the pre-parse reads at every share
    lines[at] = Buffer.concat([lines[at]!.subarray(0, 20), Buffer.from([0xff]), lines[at]!.subarray(20)]);
    const path = join(dir, 'not-utf8.jsonl');
    writeFileSync(path, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
    const one = (await read(path, { mode: 'off' })) as { problems: string[] };
    expect(one.problems).toEqual([`${path}:${at + 1}: not valid UTF-8 (save the file as UTF-8)`]);
    for (const mainShare of SHARES) expect(await read(path, { mode: 'inline', mainShare })).toEqual(one);
  });

  it('gives the same summary as one reader', async () => {
    const one = await scoreResults(valid, dataset, { threshold: 0.4 }, { mode: 'off' });
    for (const mainShare of SHARES)
      expect(await scoreResults(valid, dataset, { threshold: 0.4 }, { mode: 'inline', mainShare })).toEqual(one);
  });

  it('stays on one thread for small files in auto mode and still reads them', async () => {
    const one = await read(valid, { mode: 'off' });
    expect(await read(valid, { mode: 'auto' })).toEqual(one);
  });
});

describe('results split with a worker thread (compiled files in dist/)', () => {
  const distResults = join(import.meta.dirname, '..', '..', '..', '..', 'dist', 'datasets', 'offline', 'results.js');
  const distDataset = join(import.meta.dirname, '..', '..', '..', '..', 'dist', 'datasets', 'offline', 'dataset.js');

  it('gives the same summary and problems as one thread', async () => {
    expect(existsSync(distResults), 'run npm run build first').toBe(true);
    const r = (await import(pathToFileURL(distResults).href)) as typeof import('../results.js');
    const d = (await import(pathToFileURL(distDataset).href)) as typeof import('../dataset.js');
    const ds = await d.loadOfflineDataset(join(dir, 'dataset.jsonl'));
    const threaded = await r.scoreResults(valid, ds, {}, { mode: 'auto', minBytes: 0 });
    expect(threaded).toEqual(await r.scoreResults(valid, ds, {}, { mode: 'off' }));
    const problems = async (split: ResultsSplitOptions): Promise<unknown> =>
      r.scoreResults(invalid, ds, {}, split).then(
        () => 'no error',
        (e: { problems: readonly unknown[]; omitted: number }) => ({ problems: e.problems, omitted: e.omitted }),
      );
    const one = await problems({ mode: 'off' });
    expect(one).not.toBe('no error');
    expect(await problems({ mode: 'auto', minBytes: 0, mainShare: 0.3 })).toEqual(one);
  });

  it('reads a prefetched file (the whole file on the worker) the same as one thread', async () => {
    const r = (await import(pathToFileURL(distResults).href)) as typeof import('../results.js');
    const d = (await import(pathToFileURL(distDataset).href)) as typeof import('../dataset.js');
    for (const path of [bom, invalid]) {
      const prefetched = r.prefetchResults(path, { minBytes: 0 });
      const ds = await d.loadOfflineDataset(join(dir, 'dataset.jsonl'));
      const outcome = async (split: Parameters<typeof r.scoreResults>[3]): Promise<unknown> =>
        r.scoreResults(path, ds, {}, split).then(
          (x) => x,
          (e: { problems: readonly unknown[]; omitted: number }) => ({ problems: e.problems, omitted: e.omitted }),
        );
      expect(await outcome({ prefetched })).toEqual(await outcome({ mode: 'off' }));
    }
  });

  it('stops a prefetch that is not read', async () => {
    const r = (await import(pathToFileURL(distResults).href)) as typeof import('../results.js');
    await r.prefetchResults(invalid, { minBytes: 0 }).close();
  });
});

describe('results pre-parser', () => {
  it('keeps reading lines fast past its first read buffer when ids vary in length', () => {
    // Over 1 MiB (one read) with ids of changing length, so the model sits at other offsets later.
    const lines: string[] = [];
    for (let i = 0; i < 12000; i++)
      lines.push(
        JSON.stringify({
          case_id: `c-${'x'.repeat(i % 7)}${i}`,
          model: 'model-m',
          decision: { probability: 0.5 },
          latency_ms: i,
        }),
      );
    const path = join(dir, 'varied-ids.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const counts = [0, 0, 0];
    preparseResultLines(
      path,
      0,
      (b) => {
        for (let k = 0; k < b.count; k++) counts[b.status[k]!]!++;
      },
      () => new ResultBatch(),
    );
    expect(counts).toEqual([0, lines.length, 0]);
  });
});
