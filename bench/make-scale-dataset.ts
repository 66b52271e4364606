/**
 * Writes a large benchmark dataset for the scale benchmarks: the bundled 100-case synthetic
 * sample repeated with new ids (`<id>~r<k>`) in a seeded order, as one JSONL file that
 * `bench --dataset PATH` reads. Nothing big is committed: the file goes where you say
 * (a temp dir).
 *
 *   npx tsx bench/make-scale-dataset.ts --cases 20000 --out /tmp/scale-20000.jsonl [--seed 1]
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSeededRandom } from '../src/core/seeded-random.js';

/**
 * The sample's rows repeated to `cases` rows with new ids, each block of 100 in a seeded
 * order, one at a time: a million rows are never held at once.
 */
export function* scaleRows(cases: number, seed: number): Generator<string> {
  const rows = readFileSync(join(import.meta.dirname, '..', 'data', 'typed-decisions-sample', 'test.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  if (rows.length === 0) throw new Error('the bundled sample is empty');
  const random = createSeededRandom(seed);
  let made = 0;
  for (let block = 0; made < cases; block++) {
    const order = rows.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) {
      if (made >= cases) break;
      const row = rows[i]!;
      made++;
      yield JSON.stringify({ ...row, id: `${String(row['id'])}~r${block}` });
    }
  }
}

/** Writes the rows as JSONL, about a megabyte a write. */
export function writeScaleDataset(path: string, cases: number, seed = 1): void {
  const fd = openSync(path, 'w');
  try {
    let piece = '';
    for (const row of scaleRows(cases, seed)) {
      piece += `${row}\n`;
      if (piece.length >= 1 << 20) {
        writeSync(fd, piece);
        piece = '';
      }
    }
    if (piece !== '') writeSync(fd, piece);
  } finally {
    closeSync(fd);
  }
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '20000' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
    },
  });
  if (values.out === undefined) throw new Error('--out PATH is required');
  writeScaleDataset(values.out, Number(values.cases), Number(values.seed));
  process.stdout.write(`wrote ${values.cases} cases to ${values.out}\n`);
}
