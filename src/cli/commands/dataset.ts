import { given } from '../../core/given.js';
import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { PINNED_REVISION } from '../../datasets/typed-decisions/provenance.js';
import { describeDatasets, verifyDatasets, type DatasetTarget } from '../../app/datasets/describe-datasets.js';
import { defineCommand, defineCommandGroup, flag, text } from '../define-command.js';
import type { CliIo } from '../io.js';
import { cacheDirOf } from '../locations.js';
import { fetchTypedDecisions } from '../../datasets/typed-decisions/index.js';
import { refuseWrongFiles } from '../wrong-file.js';
import { renderFetchJson, renderDatasetInfoJson, renderVerifyJson } from '../../reports/datasets/dataset-json.js';
import { renderFetchText, renderDatasetInfoText, renderVerifyText } from '../../reports/datasets/dataset-text.js';

const cacheDirOption = text('DIR', 'cache root; copies live in DIR/typed-decisions/<revision>/', {
  defaultText: '$XDG_CACHE_HOME/decidekit, else ~/.cache/decidekit',
  example: 'cache',
});
const jsonOption = flag('one JSON document');

const PATH_NOTE = `PATH is a .parquet file (the dataset's own), a .jsonl or .jsonl.gz file of decoded rows,
or a folder holding manifest.json.`;

const fetchCommand = defineCommand({
  name: 'dataset fetch',
  summary: 'download Typed Decisions, check its sha256, store the test split',
  usage: 'dataset fetch typed-decisions [--revision R] [--sha256 H] [--cache-dir DIR] [--json]',
  description: `Downloads all/test-00000-of-00001.parquet of the pinned revision
(${PINNED_REVISION.slice(0, 12)}) from Hugging Face, checks its sha256, validates every row
and stores the file with a manifest in the cache. Only the file with the pinned sha256 is
Typed Decisions; another file (another revision or --sha256) is a custom dataset.
Offline? Download the file elsewhere and pass it by path to bench/info/verify.`,
  options: {
    revision: text(
      'R',
      'dataset revision to fetch (default: the pinned one). Another revision\nhas no pinned sha256: its observed hash is recorded with a warning,\nunless --sha256 gives the expected one',
      { example: 'main' },
    ),
    sha256: text('H', 'expected sha256 of the parquet file (default: the pinned hash)', {
      example: '0'.repeat(64),
    }),
    'cache-dir': cacheDirOption,
    json: jsonOption,
  },
  positionals: { min: 1, max: 1, names: 'one dataset name: typed-decisions' },
  notes: `The download is capped at 64 MiB (only the sha256 is pinned, not the size): a larger
Content-Length or body is refused with nothing saved; 30 s without data abandons it.

Environment:
  HF_ENDPOINT      a Hugging Face mirror to download from (default https://huggingface.co)`,
  exitCodes: '0 fetched and verified, 1 download or integrity failure, 2 usage error, 130 interrupted.',
  examples: ['decidekit dataset fetch typed-decisions'],
  async run({ values, positionals }, io) {
    if (positionals[0] !== 'typed-decisions')
      throw new UsageError(
        `dataset fetch takes one dataset name: typed-decisions, got ${positionals.map((p) => JSON.stringify(p)).join(' ')}`,
      );
    if (values.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.sha256))
      throw new UsageError(`--sha256 ${JSON.stringify(values.sha256)} is not 64 hex digits`);
    const cacheDir = cacheDirFrom(values['cache-dir'], io);
    const showProgress = io.stderr.isTTY && !values.json;
    let lastShown = -1;
    const result = await fetchTypedDecisions({
      cacheDir,
      fetch: globalThis.fetch,
      // HF_ENDPOINT: the Hugging Face tools' variable for a mirror.
      ...(io.env['HF_ENDPOINT'] === undefined || io.env['HF_ENDPOINT'] === ''
        ? {}
        : { baseUrl: io.env['HF_ENDPOINT'] }),
      ...given({ revision: values.revision, sha256: values.sha256 }),
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
    io.stdout.write(values.json ? renderFetchJson(result) : renderFetchText(result));
    return 0;
  },
});

const infoCommand = defineCommand({
  name: 'dataset info',
  summary: 'provenance and contents of a dataset',
  usage: 'dataset info [sample | typed-decisions | PATH] [--split S] [--cache-dir DIR] [--json]',
  description: `Shows provenance (id, revision, license, source, hashes, attribution) and contents
(cases per workflow, decisions per question type). Default: the sample and the cached Typed
Decisions copy, if any.

${PATH_NOTE}`,
  options: {
    split: text('S', 'split to describe', { defaultText: 'test', example: 'test' }),
    'cache-dir': cacheDirOption,
    json: jsonOption,
  },
  positionals: { min: 0, max: 1, names: 'at most one dataset' },
  exitCodes: '0 ok, 1 a named dataset is missing or invalid, 2 usage error.',
  examples: ['decidekit dataset info typed-decisions'],
  async run({ values, positionals }, io) {
    const targets = targetsOf(positionals, values['cache-dir'], io);
    await refuseWrongTargets(targets, io);
    const { described, notFetched } = await describeDatasets(targets, {
      explicit: positionals.length > 0,
      ...given({ split: values.split }),
    });
    io.stdout.write(
      values.json
        ? renderDatasetInfoJson(described, notFetched)
        : renderDatasetInfoText(described, notFetched, io.stdout.columns || Infinity),
    );
    return 0;
  },
});

const verifyCommand = defineCommand({
  name: 'dataset verify',
  summary: 'check stored copies against their manifests and every row',
  usage: 'dataset verify [sample | typed-decisions | PATH ...] [--cache-dir DIR] [--json]',
  description: `Checks that stored copies match their manifests (present, size, sha256, row count) and
that every row is valid. Default: the sample and the cached copy.

${PATH_NOTE}`,
  options: { 'cache-dir': cacheDirOption, json: jsonOption },
  positionals: { min: 0, max: Number.POSITIVE_INFINITY, names: 'datasets' },
  exitCodes: '0 every copy verified, 1 anything fails, 2 usage error.',
  examples: ['decidekit dataset verify ./test-00000-of-00001.parquet'],
  async run({ values, positionals }, io) {
    const targets = targetsOf(positionals, values['cache-dir'], io);
    await refuseWrongTargets(targets, io);
    const results = await verifyDatasets(targets, { explicit: positionals.length > 0 });
    const failed = results.some((r) => !r.ok && !r.skipped);
    io.stdout.write(values.json ? renderVerifyJson(results) : renderVerifyText(results));
    return failed ? 1 : 0;
  },
});

export const command = defineCommandGroup({
  name: 'dataset',
  summary: 'fetch Typed Decisions, show provenance, verify stored copies',
  description: `Typed Decisions (LocalLLaMA/typed-decisions, Apache-2.0) is the benchmark 'decidekit bench'
runs. decidekit ships a small SYNTHETIC sample in the same schema ('sample'); numbers on it
are not Typed Decisions scores.`,
  subcommands: [fetchCommand, infoCommand, verifyCommand],
  examples: [
    'decidekit dataset fetch typed-decisions',
    'decidekit dataset info typed-decisions',
    'decidekit dataset verify ./test-00000-of-00001.parquet',
  ],
});

/** `--cache-dir DIR` resolved against the working folder, else the default cache. */
function cacheDirFrom(value: string | undefined, io: CliIo): string {
  return value === undefined ? cacheDirOf(io) : resolve(io.cwd, value);
}

/** No positional: the sample and the cached Typed Decisions copy. */
function targetsOf(positionals: readonly string[], cacheDirValue: string | undefined, io: CliIo): DatasetTarget[] {
  const cacheDir = cacheDirFrom(cacheDirValue, io);
  const names = positionals.length > 0 ? positionals : ['sample', 'typed-decisions'];
  return names.map((target) => ({
    target,
    source:
      target === 'sample'
        ? { kind: 'sample' }
        : target === 'typed-decisions'
          ? { kind: 'typed-decisions', cacheDir }
          : { kind: 'path', path: resolve(io.cwd, target) },
  }));
}

/** A dataset PATH that is another kind of file (an offline dataset, a run store, ...) is named once. */
async function refuseWrongTargets(targets: readonly DatasetTarget[], io: CliIo): Promise<void> {
  await refuseWrongFiles(
    targets.flatMap((t) =>
      t.source.kind === 'path' ? [{ option: 'dataset', path: t.source.path, expects: 'typed-decisions' as const }] : [],
    ),
    io.cwd,
  );
}
