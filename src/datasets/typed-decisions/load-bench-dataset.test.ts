import { given } from '../../core/given.js';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync, writeFileSync, appendFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DecidekitError, InvalidInputError } from '../../core/errors.js';
import { answersOf } from '../../core/question.js';
import { DatasetIntegrityError, InvalidManifestError } from './dataset-errors.js';
import { defaultCacheDir, loadBenchDataset, questionSetOf, sampleDir } from './load-bench-dataset.js';
import { RawJson, sampleRows, typedDecisionsParquet } from './test-support/typed-decisions-parquet.js';
import { tempFoldersRemovedAfterEach } from '../test-support/temp-folders.js';

const tempDir = tempFoldersRemovedAfterEach('decidekit-td-');

/** A copy of the bundled sample that a test may damage. */
function sampleCopy(): string {
  const dir = join(tempDir(), 'sample');
  cpSync(sampleDir(), dir, { recursive: true });
  return dir;
}

async function integrityMessage(path: string): Promise<string> {
  const err = await loadBenchDataset({ kind: 'path', path }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DatasetIntegrityError);
  return (err as Error).message;
}

async function inputProblems(path: string, split?: string): Promise<string[]> {
  const err = await loadBenchDataset({ kind: 'path', path }, given({ split })).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidInputError);
  return (err as InvalidInputError).problems.map(
    (p) => `${p.file}:${p.line}${p.caseId === undefined ? '' : ` ${p.caseId}`}: ${p.message}`,
  );
}

describe('loadBenchDataset: the bundled sample', () => {
  it('loads 100 test cases, 25 per workflow, labelled synthetic', async () => {
    const d = await loadBenchDataset({ kind: 'sample' });
    expect(d.info).toMatchObject({
      id: 'decidekit/typed-decisions-synthetic-sample',
      split: 'test',
      synthetic: true,
      license: 'Apache-2.0',
      url: null,
    });
    expect(d.info.attribution).toContain('not Typed Decisions scores');
    expect(d.info.revision).toMatch(/^synthetic-/);
    expect(d.cases).toHaveLength(100);
    const perWorkflow: Record<string, number> = {};
    for (const c of d.cases) {
      perWorkflow[c.workflow] = (perWorkflow[c.workflow] ?? 0) + 1;
      expect(c.id).toMatch(new RegExp(`^${c.workflow}_\\d{6}$`));
      expect(c.questions).toHaveLength(5);
      expect(typeof c.state).toBe('object');
    }
    expect(perWorkflow).toEqual({
      agent_trace_observability: 25,
      customer_service: 25,
      invoice_processing: 25,
      security_incidents: 25,
    });
  });

  it('has the real per-workflow question mix: 150 noul, 150 choice, 200 score of 500', async () => {
    const d = await loadBenchDataset({ kind: 'sample' });
    const byType: Record<string, number> = {};
    const mix: Record<string, string> = {};
    for (const c of d.cases) {
      const types = c.questions.map(([, q]) => q.type);
      for (const t of types) byType[t] = (byType[t] ?? 0) + 1;
      const count = (t: string) => types.filter((x) => x === t).length;
      mix[c.workflow] = `${count('noul')}/${count('choice')}/${count('score')}`;
    }
    expect(byType).toEqual({ noul: 150, choice: 150, score: 200 });
    expect(mix).toEqual({
      agent_trace_observability: '1/2/2',
      customer_service: '1/2/2',
      invoice_processing: '2/1/2',
      security_incidents: '2/1/2',
    });
    expect(Object.keys(d.questionSet)).toHaveLength(20);
  });

  it('loads the separate train split with tr_ ids and no test ids', async () => {
    const train = await loadBenchDataset({ kind: 'sample' }, { split: 'train' });
    expect(train.cases).toHaveLength(200);
    expect(train.cases.every((c) => c.id.startsWith('tr_'))).toBe(true);
    expect(train.info.split).toBe('train');
  });

  it('never stores hidden factors in the rows', () => {
    for (const r of sampleRows('test'))
      expect(Object.keys(r).sort()).toEqual(['gold', 'id', 'questions', 'state', 'workflow']);
  });
});

describe('loadBenchDataset: integrity of a stored copy', () => {
  it('names a missing file and how to restore it', async () => {
    const dir = sampleCopy();
    rmSync(join(dir, 'test.jsonl'));
    const message = await integrityMessage(dir);
    expect(message).toBe(
      `dataset integrity check failed: ${join(dir, 'test.jsonl')} is missing (restore it: reinstall decidekit, or in a source checkout run \`npx tsx scripts/make-typed-decisions-sample.ts\`)`,
    );
  });

  it('refuses a manifest that lists a file twice', async () => {
    const dir = sampleCopy();
    const path = join(dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as { files: { split: string }[] };
    manifest.files.push({ ...manifest.files[0]!, split: 'again' });
    writeFileSync(path, JSON.stringify(manifest));
    // A folder given as the dataset holds a manifest to fix, not damage to restore.
    const err = await loadBenchDataset({ kind: 'path', path: dir }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvalidManifestError);
    expect((err as Error).message).toContain(
      `files[${manifest.files.length - 1}] lists ${(manifest.files[0] as unknown as { path: string }).path} again (first as files[0]): each file once`,
    );
  });

  it('says a shortened file is truncated', async () => {
    const dir = sampleCopy();
    const size = readFileSync(join(dir, 'test.jsonl')).length;
    truncateSync(join(dir, 'test.jsonl'), size - 100);
    expect(await integrityMessage(dir)).toContain(`test.jsonl is truncated: ${size - 100} of ${size} bytes`);
  });

  it('says a file edited in place (same size) no longer matches its sha256', async () => {
    const dir = sampleCopy();
    const path = join(dir, 'test.jsonl');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('"label":"false"', '"label":"fals3"'));
    expect(readFileSync(path).length).toBe(Buffer.byteLength(text));
    expect(await integrityMessage(dir)).toMatch(
      /test\.jsonl was edited or corrupted: sha256 [0-9a-f]{16}…, the manifest says [0-9a-f]{16}… \(restore it: /,
    );
  });

  it('says a grown file has changed', async () => {
    const dir = sampleCopy();
    appendFileSync(join(dir, 'test.jsonl'), '{}\n');
    expect(await integrityMessage(dir)).toMatch(/test\.jsonl has changed: \d+ bytes, the manifest says \d+/);
  });

  it('rejects a row count that differs from the manifest', async () => {
    const dir = sampleCopy();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.files[0].rows = 99;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(await integrityMessage(dir)).toContain('test.jsonl has 100 rows, the manifest says 99');
  });

  it('rejects a folder without manifest.json', async () => {
    const dir = sampleCopy();
    rmSync(join(dir, 'manifest.json'));
    expect(await integrityMessage(dir)).toContain(`${join(dir, 'manifest.json')} is missing`);
  });

  it('checks a file named directly against the manifest beside it', async () => {
    const dir = sampleCopy();
    truncateSync(join(dir, 'train.jsonl'), 10);
    expect(await integrityMessage(join(dir, 'train.jsonl'))).toContain('train.jsonl is truncated: 10 of');
    const ok = await loadBenchDataset({ kind: 'path', path: join(dir, 'test.jsonl') });
    // A copy of the sample's folder is not decidekit's own: a custom dataset that says so.
    expect(ok.info).toMatchObject({ id: 'test.jsonl', synthetic: true });
    expect(ok.info.attribution).toContain('its manifest names the bundled synthetic sample');
    const own = await loadBenchDataset({ kind: 'path', path: join(sampleDir(), 'test.jsonl') });
    expect(own.info.id).toBe('decidekit/typed-decisions-synthetic-sample');
  });
});

describe('loadBenchDataset: user files', () => {
  function writeJsonl(rows: readonly unknown[], name = 'cases.jsonl'): string {
    const path = join(tempDir(), name);
    writeFileSync(path, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
    return path;
  }

  it('names a line nested 5,000 deep, a repeated key and a deep JSON state, without a stack overflow', async () => {
    const [a, b, c] = sampleRows().slice(0, 3) as [any, any, any];
    const deep = JSON.stringify(a).replace(/^\{/, `{"meta":${'['.repeat(5000)}${']'.repeat(5000)},`);
    const dup = JSON.stringify(b).replace(/^\{/, `{"workflow":"x",`);
    c.state = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const path = writeJsonl([deep, dup, c]);
    const problems = await inputProblems(path);
    expect(problems[0]).toMatch(new RegExp(`^${path}:1: too deeply nested: more than 512 levels`));
    expect(problems[1]).toMatch(new RegExp(`^${path}:2: key "workflow" appears twice in one object`));
    expect(problems[2]).toMatch(new RegExp(`^${path}:3 ${c.id}: .*state too deeply nested`));
  });

  it('refuses a row whose split is not a string rather than read it as a row of every split', async () => {
    const [a, b, c] = sampleRows().slice(0, 3) as [any, any, any];
    const path = writeJsonl([
      { ...a, split: 'test' },
      { ...b, split: 7 },
      { ...c, split: null },
    ]);
    expect(await inputProblems(path, 'test')).toEqual([`${path}:2 ${b.id}: split must be a non-empty string, got 7`]);
  });

  it('loads JSONL without a manifest under the file name, with no revision', async () => {
    const rows = sampleRows().slice(0, 3);
    const path = writeJsonl(rows, 'mine.jsonl');
    const d = await loadBenchDataset({ kind: 'path', path });
    expect(d.info).toEqual({
      id: 'mine.jsonl',
      revision: null,
      split: 'test',
      license: 'unknown',
      synthetic: false,
      attribution: 'user-supplied file mine.jsonl (provenance unknown)',
      url: null,
      file: { path, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') },
    });
    expect(d.cases.map((c) => c.id)).toEqual(rows.map((r) => r.id));
  });

  it('loads JSONL.gz', async () => {
    const path = join(tempDir(), 'cases.jsonl.gz');
    writeFileSync(
      path,
      gzipSync(
        sampleRows()
          .slice(0, 4)
          .map((r) => JSON.stringify(r))
          .join('\n'),
      ),
    );
    expect((await loadBenchDataset({ kind: 'path', path })).cases).toHaveLength(4);
  });

  it('names file, line, case and question for every bad row', async () => {
    const [a, b, c, d] = sampleRows().slice(0, 4) as [any, any, any, any];
    b.gold.outcome.probabilities.success = 0.9;
    c.gold.needs_review.label =
      c.gold.needs_review.probabilities.true > c.gold.needs_review.probabilities.false ? 'false' : 'true';
    d.id = a.id;
    const path = writeJsonl([a, '{"id": "broken', b, c, d]);
    const problems = await inputProblems(path);
    expect(problems[0]).toMatch(new RegExp(`^${path}:2: not valid JSON`));
    expect(problems[1]).toMatch(
      new RegExp(
        `^${path}:3 ${b.id}: question outcome: gold probabilities sum to [0-9.]+, expected 1 \\(within 0.01\\)$`,
      ),
    );
    expect(problems[2]).toMatch(
      new RegExp(
        `^${path}:4 ${c.id}: question needs_review: gold label "(true|false)" \\(p=[0-9.]+\\) is not one of the most likely answers`,
      ),
    );
    expect(problems[3]).toBe(`${path}:5 ${a.id}: duplicate case id ${a.id} (first on line 1)`);
    expect(problems).toHaveLength(4);
  });

  it('rejects two schemas for one workflow/question', async () => {
    const [a, b] = sampleRows().slice(0, 2) as [any, any];
    b.questions.action.instructions = 'Something else?';
    expect(await inputProblems(writeJsonl([a, b]))).toEqual([
      expect.stringMatching(
        /:2 agent_trace_observability_000002: question action: its schema differs from agent_trace_observability\/action in case agent_trace_observability_000001 \(line 1\)/,
      ),
    ]);
  });

  it('keeps only the requested split when rows carry one, and says which splits exist', async () => {
    const rows = sampleRows()
      .slice(0, 2)
      .map((r, i) => ({ ...r, split: i === 0 ? 'test' : 'train' }));
    const path = writeJsonl(rows);
    expect((await loadBenchDataset({ kind: 'path', path })).cases.map((c) => c.id)).toEqual([rows[0]!.id]);
    expect(await inputProblems(path, 'validation')).toEqual([
      `${path}:null: no cases of split validation (splits in the file: test, train)`,
    ]);
  });

  it('rejects an unknown file format', async () => {
    const path = join(tempDir(), 'cases.csv');
    writeFileSync(path, 'id\n');
    expect(await inputProblems(path)).toEqual([
      `${path}:null: unknown dataset format (expected .parquet, .jsonl or .jsonl.gz, or a folder with manifest.json)`,
    ]);
  });
});

describe('loadBenchDataset: parquet', () => {
  it('reads the real column layout, decodes the JSON columns, keeps the split and never reads factors', async () => {
    const test = sampleRows('test')
      .slice(0, 6)
      .map((r) => ({ ...r, split: 'test' }));
    const train = sampleRows('train')
      .slice(0, 3)
      .map((r) => ({ ...r, split: 'train' }));
    const path = join(tempDir(), 'test-00000-of-00001.parquet');
    writeFileSync(path, typedDecisionsParquet([...train.slice(0, 1), ...test, ...train.slice(1)]));
    const d = await loadBenchDataset({ kind: 'path', path });
    expect(d.cases.map((c) => c.id)).toEqual(test.map((r) => r.id));
    expect(d.cases[0]!.state).toEqual(test[0]!.state);
    expect(JSON.stringify(d.cases)).not.toContain('hidden-');
    // A parquet file that is not the pinned one is a user file.
    expect(d.info.id).toBe('test-00000-of-00001.parquet');
    const first = d.cases[0]!;
    const [qid, question] = first.questions[1]!;
    const gold = (test[0]!.gold[qid] as { probabilities: Record<string, number> }).probabilities;
    expect(first.gold[1]!.probabilities).toEqual(answersOf(question).map((a) => gold[a]));
    const trainOnly = await loadBenchDataset({ kind: 'path', path }, { split: 'train' });
    expect(trainOnly.cases).toHaveLength(3);
  });

  it('names the row and column of undecodable JSON', async () => {
    const rows = sampleRows('test')
      .slice(0, 2)
      .map((r) => ({ ...r, split: 'test' }));
    const path = join(tempDir(), 'bad.parquet');
    writeFileSync(path, typedDecisionsParquet([rows[0]!, { ...rows[1]!, gold: new RawJson('{"action": {"label": ') }]));
    const problems = await inputProblems(path);
    expect(problems[0]).toMatch(new RegExp(`bad\\.parquet:2 ${rows[1]!.id}: column gold is not valid JSON`));
  });

  it('reads row group by row group, numbering rows across the groups', async () => {
    const rows = sampleRows('test')
      .slice(0, 7)
      .map((r, i) => ({ ...r, split: i % 3 === 0 ? 'train' : 'test' }));
    const path = join(tempDir(), 'grouped.parquet');
    writeFileSync(path, typedDecisionsParquet(rows, 2));
    const { parquetMetadata } = await import('hyparquet');
    const bytes = readFileSync(path);
    expect(
      parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).row_groups,
    ).toHaveLength(4);
    const d = await loadBenchDataset({ kind: 'path', path });
    expect(d.cases.map((c) => c.id)).toEqual(rows.filter((r) => r.split === 'test').map((r) => r.id));
    writeFileSync(path, typedDecisionsParquet([...rows.slice(0, 4), { ...rows[4]!, gold: new RawJson('{') }], 2));
    expect((await inputProblems(path))[0]).toMatch(
      new RegExp(`grouped\\.parquet:5 ${rows[4]!.id}: column gold is not valid JSON`),
    );
  });

  it('names a .parquet file that is not Parquet', async () => {
    const path = join(tempDir(), 'fake.parquet');
    writeFileSync(path, '{"id": "a"}\n');
    const err = await loadBenchDataset({ kind: 'path', path }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecidekitError);
    expect((err as DecidekitError).code).toBe('file_unreadable');
    expect((err as Error).message).toContain(`cannot read file: ${path} (not a readable parquet file`);
  });

  it('rejects a parquet file without the dataset columns', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const path = join(tempDir(), 'other.parquet');
    writeFileSync(
      path,
      new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: ['a'], type: 'STRING' }] })),
    );
    expect(await inputProblems(path)).toEqual([
      `${path}:null: missing columns workflow, state, questions, gold (columns: id)`,
    ]);
  });
});

describe('loadBenchDataset: typed-decisions', () => {
  it('explains how to fetch or pass a file when nothing is cached', async () => {
    const cacheDir = tempDir();
    const err = await loadBenchDataset({ kind: 'typed-decisions', cacheDir }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /^Typed Decisions is not in the cache: .*typed-decisions\/e039ebffcc280174dd354227424fb2b249f191de \(run `decidekit dataset fetch typed-decisions` while online, or download https:\/\/huggingface\.co\/datasets\/LocalLLaMA\/typed-decisions\/resolve\/e039ebffcc280174dd354227424fb2b249f191de\/all\/test-00000-of-00001\.parquet yourself and pass `--dataset test-00000-of-00001\.parquet` in the folder that holds it\)$/,
    );
  });
});

describe('defaultCacheDir', () => {
  it('uses XDG_CACHE_HOME when absolute, else ~/.cache', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe('/x/cache/decidekit');
    expect(defaultCacheDir({ XDG_CACHE_HOME: 'relative', HOME: '/home/u' })).toBe('/home/u/.cache/decidekit');
    expect(defaultCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/decidekit');
  });
});

describe('questionSetOf', () => {
  it('maps workflow/question to a 16-hex hash, keys sorted, equal for equal schemas', async () => {
    const d = await loadBenchDataset({ kind: 'sample' });
    const set = questionSetOf(d.cases);
    expect(Object.keys(set)).toEqual(Object.keys(set).sort());
    expect(Object.values(set).every((h) => /^[0-9a-f]{16}$/.test(h))).toBe(true);
    // urgency has the same levels everywhere but different instructions per workflow.
    expect(set['customer_service/urgency']).not.toBe(set['agent_trace_observability/urgency']);
    expect(questionSetOf(d.cases.slice(0, 30))['agent_trace_observability/risk']).toBe(
      set['agent_trace_observability/risk'],
    );
  });

  it('refuses two schemas under one key', async () => {
    const d = await loadBenchDataset({ kind: 'sample' });
    const [a] = d.cases;
    const changed = {
      ...a!,
      id: 'x',
      questions: a!.questions.map(([id, q]) => [id, { ...q, instructions: `${q.instructions}!` }] as const),
    };
    expect(() => questionSetOf([a!, changed])).toThrow(
      /question agent_trace_observability\/action has two different schemas \(case x\)/,
    );
  });
});
