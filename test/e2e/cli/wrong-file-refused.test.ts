/**
 * A file given to the wrong command or option: one usage error (exit 2) naming the file, what
 * it is and the command to run instead, never a problem per line.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import {
  sampleRows,
  typedDecisionsParquet,
} from '../../../src/datasets/typed-decisions/test-support/typed-decisions-parquet.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const DATA = join(import.meta.dirname, '..', '..', '..', 'data');
const TD = join(DATA, 'typed-decisions-sample', 'test.jsonl');
const DATASET = join(DATA, 'moderation', 'dataset.jsonl');
const RESULTS = join(DATA, 'moderation', 'results-loud-1.jsonl');
const SPEC = join(DATA, 'inbox', 'spec.json');

const dir = tempFolderRemovedAfterAll('decidekit-wrong-file-');
let store: string;
let report: string;

function cli(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data') } });
}

/** Exit 2, one message naming the file once, and the advice given. */
function expectRefused(r: CliResult, file: string, what: RegExp, advice: string): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(2); // the message and "Run 'decidekit ... --help' for usage."
  expect(lines[0]!.split(`${file} (given as`)).toHaveLength(2);
  expect(lines[0]).toMatch(what);
  expect(lines[0]).toContain(advice);
}

/**
 * Runs the command a refusal's hint gives, as pasted (its placeholders filled with `fill`),
 * and expects it to succeed.
 */
async function expectHintRuns(r: CliResult, fill: Readonly<Record<string, string>> = {}): Promise<void> {
  const hint = /`decidekit ([^`]+)`$/.exec(r.stderr.trim().split('\n')[0]!)?.[1];
  expect(hint).toBeDefined();
  const args = hint!.split(' ').map((word) => fill[word] ?? word);
  expect(args.filter((a) => /^[A-Z]+$/.test(a))).toEqual([]);
  const pasted = await cli(args);
  expect(pasted.stderr).not.toContain('(given as');
  expect(pasted.code).toBe(0);
}

beforeAll(async () => {
  store = join(dir, 'runs.sqlite');
  const bench = await cli(['bench', '--limit', '2', '--store', store, '--out', join(dir, 'out')]);
  expect(bench.code).toBe(0);
  report = join(
    dir,
    'out',
    readdirSync(join(dir, 'out')).find((f) => f.endsWith('.json'))!,
  );
});

describe('a file given to the wrong command', () => {
  it('names a live record given to score --results as what it is, which no command scores', async () => {
    const record = join(dir, 'session.jsonl');
    const stop = new AbortController();
    const live = await runCliInProcess(['live', '--json', '--interval', '0', '--record', record], {
      cwd: dir,
      env: { XDG_DATA_HOME: join(dir, 'data') },
      signal: stop.signal,
      onStdout: (text) => {
        if (text.includes('\n')) stop.abort();
      },
    });
    expect(live.code, live.stderr).toBe(130);
    const r = await cli(['score', '--dataset', DATASET, '--results', record]);
    expectRefused(
      r,
      record,
      /is a live session record \(written by `decidekit live --record`\), not a results file/,
      "no command scores it: it is the session's log (docs/file-formats.md, Live record)",
    );
    expect(r.stderr).not.toContain('model is missing');
  });

  it('names a Typed Decisions dataset given to score --results and says to bench it', async () => {
    const r = await cli(['score', '--dataset', DATASET, '--results', TD]);
    expectRefused(r, TD, /is a Typed Decisions dataset/, `use \`decidekit bench --dataset ${TD}\``);
  });

  it('names a Typed Decisions dataset given to score --dataset', async () => {
    const r = await cli(['score', '--dataset', TD, '--results', RESULTS]);
    expectRefused(r, TD, /given as --dataset\) is a Typed Decisions dataset/, `decidekit bench --dataset ${TD}`);
  });

  it('names a results file given as --dataset and says where it goes in the same command', async () => {
    const r = await cli(['compare', '--dataset', RESULTS, '--results', RESULTS]);
    expectRefused(
      r,
      RESULTS,
      /is a results file/,
      `give it as --results: \`decidekit compare --dataset DATASET --results ${RESULTS}\``,
    );
    await expectHintRuns(r, { DATASET });
  });

  it('puts a dataset and results given the wrong way round the right way round', async () => {
    const r = await cli(['score', '--dataset', RESULTS, '--results', DATASET]);
    expectRefused(
      r,
      RESULTS,
      /given as --dataset\) is a results file/,
      `give it as --results: \`decidekit score --dataset ${DATASET} --results ${RESULTS}\``,
    );
    await expectHintRuns(r);
  });

  it('sends an offline dataset given to bench, live or probe to score, without "give it as" the option it was given as', async () => {
    for (const command of ['bench', 'live', 'probe']) {
      const r = await cli([command, '--dataset', DATASET]);
      expectRefused(
        r,
        DATASET,
        /is an offline dataset/,
        `: use \`decidekit score --dataset ${DATASET} --results RESULTS\``,
      );
      expect(r.stderr).not.toContain('give it as');
      await expectHintRuns(r, { RESULTS });
    }
  });

  it('refuses a results file given to probe --dataset once, with exit 2, as bench does', async () => {
    const r = await cli(['probe', '--dataset', RESULTS, '--no-store']);
    expectRefused(r, RESULTS, /is a results file/, `use \`decidekit score --dataset DATASET --results ${RESULTS}\``);
    expect(r.stderr).not.toContain('must be a non-empty string');
  });

  it('keeps tune and actions in their own command when the file belongs under another of their options', async () => {
    const tune = await cli(['tune', '--dataset', DATASET, '--results', DATASET]);
    expectRefused(
      tune,
      DATASET,
      /given as --results\) is an offline dataset/,
      `give it as --dataset: \`decidekit tune --dataset ${DATASET} --results RESULTS\``,
    );
    expect(tune.stderr).not.toContain('decidekit score');
    await expectHintRuns(tune, { RESULTS });
    const inbox = join(DATA, 'inbox', 'dataset.jsonl');
    const inboxResults = join(DATA, 'inbox', 'results-actionwise-1.jsonl');
    const actions = await cli(['actions', '--dataset', inbox, '--spec', inbox, '--results', inboxResults]);
    expectRefused(
      actions,
      inbox,
      /given as --spec\) is an offline dataset/,
      `give it as --dataset: \`decidekit actions --dataset ${inbox} --spec SPEC --results ${inboxResults}\``,
    );
    expect(actions.stderr).not.toContain('decidekit score');
    await expectHintRuns(actions, { SPEC });
  });

  it('says what a folder of audit transcripts or offline files holds and what reads it, not to restore it', async () => {
    const audits = join(DATA, 'audits');
    const r = await cli(['bench', '--dataset', audits, '--no-store']);
    expectRefused(
      r,
      audits,
      /is a folder without manifest\.json holding checks\.json \(audit checks\) and transcripts\.jsonl \(audit transcripts\), not a Typed Decisions dataset/,
      `use \`decidekit audit --transcripts ${join(audits, 'transcripts.jsonl')} --checks ${join(audits, 'checks.json')}\``,
    );
    expect(r.stderr).not.toContain('restore');
    await expectHintRuns(r);
    const moderation = join(DATA, 'moderation');
    const m = await cli(['probe', '--dataset', moderation, '--no-store']);
    expectRefused(
      m,
      moderation,
      /holding dataset\.jsonl \(an offline dataset\), results-budget-1\.jsonl/,
      'decidekit compare --dataset',
    );
    await expectHintRuns(m);
    const empty = mkdtempSync(join(dir, 'empty-'));
    const e = await cli(['bench', '--dataset', empty, '--no-store']);
    expectRefused(
      e,
      empty,
      /is a folder without manifest\.json and no Typed Decisions files in it, not a Typed Decisions folder/,
      'give a dataset file (.jsonl, .jsonl.gz or .parquet) or a dataset folder (a dataset folder holds manifest.json',
    );
  });

  it('says a folder of Typed Decisions files without manifest.json is not a dataset folder, and the file hint runs', async () => {
    const folder = mkdtempSync(join(dir, 'rows-'));
    copyFileSync(TD, join(folder, 'test.jsonl'));
    for (const command of ['bench', 'probe']) {
      const r = await cli([command, '--dataset', folder, '--no-store']);
      expectRefused(
        r,
        folder,
        /is a folder of Typed Decisions files without manifest\.json, not a dataset folder: give one file/,
        'a dataset folder holds manifest.json and the files it lists',
      );
      expect(r.stderr).not.toContain('integrity check failed');
      expect(r.stderr).not.toContain('restore');
      const hint = /give one file \(`decidekit ([^`]+)`\)/.exec(r.stderr)?.[1];
      expect(hint).toBe(`${command} --dataset ${join(folder, 'test.jsonl')}`);
    }
    const pasted = await cli(['bench', '--dataset', join(folder, 'test.jsonl')]);
    expect(pasted.code, pasted.stderr).toBe(0);
  });

  it('names an offline dataset given to dataset verify', async () => {
    const r = await cli(['dataset', 'verify', DATASET]);
    expectRefused(r, DATASET, /is an offline dataset/, `decidekit score --dataset ${DATASET}`);
  });

  it('names a run store given where JSON Lines are read', async () => {
    const r = await cli(['validate', '--dataset', store]);
    expectRefused(r, store, /is a SQLite database \(a decidekit run store\?\)/, `decidekit runs list --store ${store}`);
  });

  it('names a bench report given as a dataset', async () => {
    const r = await cli(['score', '--dataset', report, '--results', RESULTS]);
    expectRefused(r, report, /is a bench report \(JSON\)/, 'decidekit runs show RUN');
  });

  it('names an action spec given as --results, and a results file given as --spec', async () => {
    const asResults = await cli(['tune', '--dataset', DATASET, '--results', SPEC]);
    // tune reads no spec: the hint is the command that does, with the dataset already given.
    expectRefused(
      asResults,
      SPEC,
      /is an action spec/,
      `use \`decidekit actions --dataset ${DATASET} --spec ${SPEC} --results RESULTS\``,
    );
    const asSpec = await cli([
      'actions',
      '--dataset',
      join(DATA, 'inbox', 'dataset.jsonl'),
      '--spec',
      RESULTS,
      '--results',
      RESULTS,
    ]);
    expectRefused(asSpec, RESULTS, /given as --spec\) is a results file/, 'give it as --results');
  });

  it('names gzip without a .gz name, and reads it under one', async () => {
    const gz = join(dir, 'dataset.jsonl');
    writeFileSync(gz, gzipSync(readFileSync(DATASET)));
    const r = await cli(['score', '--dataset', gz, '--results', RESULTS]);
    expectRefused(r, gz, /is gzip-compressed but its name does not end in \.gz/, `rename it to ${gz}.gz`);
    copyFileSync(gz, `${gz}.gz`);
    expect((await cli(['score', '--dataset', `${gz}.gz`, '--results', RESULTS])).code).toBe(0);
  });

  it('names a parquet file given to score, and one without its .parquet name given to bench', async () => {
    const parquet = join(dir, 'td.data');
    writeFileSync(
      parquet,
      typedDecisionsParquet(
        sampleRows('test')
          .slice(0, 3)
          .map((row) => ({ ...row, split: 'test' })),
      ),
    );
    const r = await cli(['score', '--dataset', parquet, '--results', RESULTS]);
    expectRefused(
      r,
      parquet,
      /is a Parquet file \(the Typed Decisions dataset\?\)/,
      `decidekit bench --dataset ${parquet}`,
    );
    const b = await cli(['bench', '--dataset', parquet, '--no-store']);
    expectRefused(b, parquet, /is a Parquet file/, 'rename it to end in .parquet');
  });

  it('names audit checks given as transcripts', async () => {
    const checks = join(DATA, 'audits', 'checks.json');
    const r = await cli(['audit', '--transcripts', checks, '--checks', checks, '--no-store']);
    expectRefused(r, checks, /given as --transcripts\) is an audit checks file/, `--checks ${checks}`);
  });

  it('names a JSON document over several lines where JSON Lines are read', async () => {
    const doc = join(dir, 'doc.json');
    writeFileSync(doc, '{\n  "cases": []\n}\n');
    const r = await cli(['score', '--dataset', doc, '--results', RESULTS]);
    expectRefused(r, doc, /is a JSON document over several lines/, 'one JSON object a line');
  });

  it('leaves a broken first line to the loader, which locates it', async () => {
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, '{"id": "yn-1", "kind": \n' + readFileSync(DATASET, 'utf8').split('\n').slice(1).join('\n'));
    const r = await cli(['score', '--dataset', broken, '--results', RESULTS]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${broken}:1: not valid JSON`);
  });
});
