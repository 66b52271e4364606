import { resolve } from 'node:path';
import { DecidekitError, InvalidInputError, UsageError, formatProblem } from '../../core/errors.js';
import {
  defaultCacheDir,
  fetchTypedDecisions,
  loadBenchDataset,
  PINNED_REVISION,
  summarizeCases,
  verifyBenchDataset,
  type CaseSummary,
  type DatasetManifest,
  type DatasetSource,
  type FetchTypedDecisionsResult,
  type VerifiedDataset,
} from '../../datasets/typed-decisions/index.js';
import type { DatasetInfo } from '../../core/bench/run.js';
import { parseCommandArgs, type Command } from '../command.js';
import type { CliIo } from '../io.js';

const HELP = `Usage: decidekit dataset fetch typed-decisions [--revision R] [--sha256 H] [--cache-dir DIR] [--json]
       decidekit dataset info   [sample | typed-decisions | PATH] [--split S] [--cache-dir DIR] [--json]
       decidekit dataset verify [sample | typed-decisions | PATH ...] [--cache-dir DIR] [--json]

Typed Decisions (LocalLLaMA/typed-decisions, Apache-2.0) is the benchmark 'decidekit bench'
runs. decidekit ships a small SYNTHETIC sample in the same schema ('sample'); numbers on it
are not Typed Decisions scores.

Subcommands:
  fetch     download all/test-00000-of-00001.parquet of the pinned revision
            (${PINNED_REVISION.slice(0, 12)}) from Hugging Face, check its sha256, validate every
            row and store the test split as JSONL.gz with a manifest in the cache.
            Offline? Download the file elsewhere and pass it by path to bench/info/verify.
  info      provenance (id, revision, license, source, hashes, attribution) and contents
            (cases per workflow, decisions per question type). Default: the sample and
            the cached Typed Decisions copy, if any.
  verify    check that stored copies match their manifests (present, size, sha256, row
            count) and that every row is valid. Default: the sample and the cached copy.
            Exit 1 when anything fails.

Options:
  --revision R     dataset revision to fetch (default: the pinned one). Another revision
                   has no pinned sha256: its observed hash is recorded with a warning,
                   unless --sha256 gives the expected one
  --sha256 H       expected sha256 of the parquet file (default: the pinned hash)
  --cache-dir DIR  cache root (default $XDG_CACHE_HOME/decidekit, else ~/.cache/decidekit);
                   copies live in DIR/typed-decisions/<revision>/
  --split S        split to describe (default test)
  --json           one JSON document

Environment:
  HF_ENDPOINT      a Hugging Face mirror to download from (default https://huggingface.co)

PATH is a .parquet file (the dataset's own), a .jsonl or .jsonl.gz file of decoded rows,
or a folder holding manifest.json.

Examples:
  decidekit dataset fetch typed-decisions
  decidekit dataset info typed-decisions
  decidekit dataset verify ./test-00000-of-00001.parquet
`;

const SUBCOMMANDS = ['fetch', 'info', 'verify'] as const;

function sourceOf(target: string, io: CliIo, cacheDir: string): DatasetSource {
  if (target === 'sample') return { kind: 'sample' };
  if (target === 'typed-decisions') return { kind: 'typed-decisions', cacheDir };
  return { kind: 'path', path: resolve(io.cwd, target) };
}

function cacheDirOf(value: string | undefined, io: CliIo): string {
  return value === undefined ? defaultCacheDir(io.env) : resolve(io.cwd, value);
}

export const command: Command = {
  name: 'dataset',
  summary: 'fetch Typed Decisions, show provenance, verify stored copies',
  help: HELP,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    switch (sub) {
      case 'fetch':
        return runFetch(rest, io);
      case 'info':
        return runInfo(rest, io);
      case 'verify':
        return runVerify(rest, io);
      default:
        throw new UsageError(
          sub === undefined
            ? `dataset needs a subcommand (${SUBCOMMANDS.join(', ')})`
            : `unknown subcommand ${JSON.stringify(sub)} (${SUBCOMMANDS.join(', ')})`,
        );
    }
  },
};

async function runFetch(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      revision: { type: 'string' },
      sha256: { type: 'string' },
      'cache-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    true,
  );
  if (positionals.length !== 1 || positionals[0] !== 'typed-decisions') {
    throw new UsageError(
      `dataset fetch takes one dataset name: typed-decisions${positionals.length > 0 ? `, got ${positionals.map((p) => JSON.stringify(p)).join(' ')}` : ''}`,
    );
  }
  if (values.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.sha256))
    throw new UsageError(`--sha256 ${JSON.stringify(values.sha256)} is not 64 hex digits`);
  const cacheDir = cacheDirOf(values['cache-dir'], io);
  const showProgress = io.stderr.isTTY && !values.json;
  let lastShown = -1;
  const result = await fetchTypedDecisions({
    cacheDir,
    fetch: globalThis.fetch,
    // HF_ENDPOINT: the Hugging Face tools' variable for a mirror.
    ...(io.env['HF_ENDPOINT'] === undefined || io.env['HF_ENDPOINT'] === '' ? {} : { baseUrl: io.env['HF_ENDPOINT'] }),
    ...(values.revision === undefined ? {} : { revision: values.revision }),
    ...(values.sha256 === undefined ? {} : { sha256: values.sha256 }),
    signal: io.signal,
    onProgress: (p) => {
      if (!showProgress) return;
      const mb = Math.floor(p.receivedBytes / 1e5);
      if (mb === lastShown) return;
      lastShown = mb;
      const total = p.totalBytes === null ? '' : ` of ${(p.totalBytes / 1e6).toFixed(1)} MB`;
      io.stderr.write(`\rdownloading ${(p.receivedBytes / 1e6).toFixed(1)} MB${total}`);
    },
  });
  if (showProgress) io.stderr.write('\n');
  for (const w of result.warnings) io.stderr.write(`decidekit dataset fetch: warning: ${w}\n`);
  io.stdout.write(values.json ? `${JSON.stringify(fetchJson(result))}\n` : renderFetched(result));
  return 0;
}

function fetchJson(r: FetchTypedDecisionsResult) {
  return {
    dir: r.dir,
    id: r.manifest.id,
    revision: r.manifest.revision,
    cases: r.cases,
    downloadedBytes: r.downloadedBytes,
    source:
      r.manifest.source === null
        ? null
        : {
            url: r.manifest.source.url,
            path: r.manifest.source.path,
            sha256: r.manifest.source.sha256,
            sha256Pinned: r.manifest.source.sha256Pinned,
          },
    warnings: r.warnings,
  };
}

function renderFetched(r: FetchTypedDecisionsResult): string {
  const source = r.manifest.source;
  return [
    `fetched ${r.manifest.id} revision ${r.manifest.revision}: ${r.cases} test cases`,
    `  stored in  ${r.dir}`,
    source === null
      ? null
      : `  sha256     ${source.sha256} (${source.sha256Pinned ? 'verified' : 'recorded, not verified'})`,
    `  ${r.manifest.attribution}`,
    '',
  ]
    .filter((l) => l !== null)
    .join('\n');
}

interface InfoEntry {
  readonly target: string;
  readonly info: DatasetInfo;
  readonly location: string;
  readonly manifest: DatasetManifest | null;
  readonly summary: CaseSummary;
}

async function runInfo(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { split: { type: 'string' }, 'cache-dir': { type: 'string' }, json: { type: 'boolean', default: false } },
    true,
  );
  if (positionals.length > 1) throw new UsageError(`dataset info takes at most one dataset, got ${positionals.length}`);
  const cacheDir = cacheDirOf(values['cache-dir'], io);
  const split = values.split === undefined ? {} : { split: values.split };
  const entries: InfoEntry[] = [];
  const missing: { target: string; message: string }[] = [];
  const targets = positionals.length === 1 ? [positionals[0]!] : ['sample', 'typed-decisions'];
  for (const target of targets) {
    try {
      const d = await loadBenchDataset(sourceOf(target, io, cacheDir), split);
      entries.push({
        target,
        info: d.info,
        location: d.location,
        manifest: d.manifest,
        summary: summarizeCases(d.cases),
      });
    } catch (err) {
      // Without an argument, a Typed Decisions copy that was never fetched is information, not a failure.
      if (positionals.length === 0 && err instanceof DecidekitError && err.code === 'dataset_missing')
        missing.push({ target, message: err.message });
      else throw err;
    }
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ datasets: entries.map(infoJson), notFetched: missing })}\n`);
  } else {
    io.stdout.write(
      [...entries.map(renderInfo), ...missing.map((m) => `${m.target}: not fetched. ${m.message}\n`)].join('\n'),
    );
  }
  return 0;
}

function infoJson(e: InfoEntry) {
  return {
    target: e.target,
    dataset: e.info,
    location: e.location,
    source: e.manifest?.source ?? null,
    generator: e.manifest?.generator ?? null,
    files: e.manifest?.files ?? null,
    cases: e.summary.cases,
    decisions: e.summary.decisions,
    casesByWorkflow: e.summary.casesByWorkflow,
    decisionsByType: e.summary.decisionsByType,
  };
}

function renderInfo(e: InfoEntry): string {
  const { info, manifest, summary } = e;
  const rows: [string, string][] = [
    ['dataset', info.synthetic ? `${info.id}  (SYNTHETIC: not Typed Decisions data or scores)` : info.id],
    ['revision', info.revision ?? 'n/a'],
    ['split', `${info.split}: ${summary.cases} cases, ${summary.decisions} decisions`],
    ['license', info.license],
    ['url', info.url ?? 'n/a'],
    ['location', e.location],
  ];
  const source = manifest?.source ?? null;
  if (source !== null)
    rows.push([
      'source',
      `${source.path} sha256 ${source.sha256} (${source.sha256Pinned ? 'verified at download' : 'recorded at download, not verified'})`,
    ]);
  if (manifest?.generator) rows.push(['generator', `${manifest.generator.script} (seed ${manifest.generator.seed})`]);
  if (manifest === null) rows.push(['manifest', 'none (a user file: provenance unknown, no integrity check)']);
  else {
    for (const f of manifest.files)
      rows.push([`file ${f.split}`, `${f.path}: ${f.rows} rows, ${f.bytes} bytes, sha256 ${f.sha256}`]);
  }
  rows.push([
    'workflows',
    Object.entries(summary.casesByWorkflow)
      .map(([w, n]) => `${w} ${n}`)
      .join(', '),
  ]);
  rows.push([
    'questions',
    Object.entries(summary.decisionsByType)
      .map(([t, n]) => `${t} ${n}`)
      .join(', '),
  ]);
  rows.push(['attribution', info.attribution]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return `${e.target}\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')}\n`;
}

async function runVerify(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { 'cache-dir': { type: 'string' }, json: { type: 'boolean', default: false } },
    true,
  );
  const cacheDir = cacheDirOf(values['cache-dir'], io);
  const explicit = positionals.length > 0;
  const targets = explicit ? positionals : ['sample', 'typed-decisions'];
  const results: (
    | { target: string; ok: true; verified: VerifiedDataset }
    | { target: string; ok: false; skipped: boolean; error: string; problems: string[] }
  )[] = [];
  for (const target of targets) {
    try {
      results.push({ target, ok: true, verified: await verifyBenchDataset(sourceOf(target, io, cacheDir)) });
    } catch (err) {
      if (!(err instanceof DecidekitError)) throw err;
      const skipped = !explicit && err.code === 'dataset_missing';
      const problems = err instanceof InvalidInputError ? err.problems.map(formatProblem) : [];
      results.push({ target, ok: false, skipped, error: err.message, problems });
    }
  }
  const failed = results.some((r) => !r.ok && !r.skipped);
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({
        ok: !failed,
        results: results.map((r) =>
          r.ok
            ? {
                target: r.target,
                status: 'ok',
                dataset: r.verified.info.id,
                revision: r.verified.info.revision,
                location: r.verified.location,
                manifest: r.verified.manifest !== null,
                splits: r.verified.splits,
              }
            : { target: r.target, status: r.skipped ? 'not_fetched' : 'failed', error: r.error, problems: r.problems },
        ),
      })}\n`,
    );
  } else {
    for (const r of results) {
      if (r.ok) {
        const v = r.verified;
        const splits = v.splits.map((s) => `${s.split ?? 'all rows'} ${s.cases} cases`).join(', ');
        const integrity =
          v.manifest === null
            ? 'rows valid; no manifest, so no integrity check'
            : 'matches its manifest (size, sha256, rows); rows valid';
        io.stdout.write(
          `ok      ${r.target}: ${v.info.id}${v.info.revision === null ? '' : ` @ ${v.info.revision}`}: ${splits}; ${integrity}\n`,
        );
      } else if (r.skipped) {
        io.stdout.write(`skipped ${r.target}: not fetched (decidekit dataset fetch typed-decisions)\n`);
      } else {
        io.stdout.write(`FAILED  ${r.target}: ${r.error}\n`);
        for (const p of r.problems.slice(1)) io.stdout.write(`        ${p}\n`);
      }
    }
  }
  return failed ? 1 : 0;
}
