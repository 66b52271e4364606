/** Loads benchmark cases: the bundled sample, the fetched Typed Decisions copy, or a user file. */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchCase } from '../../core/benchmark-case.js';
import type { DatasetInfo } from '../../core/benchmark-run.js';
import { DecidekitError, InvalidInputError } from '../../core/errors.js';
import { canonicalQuestionText } from '../../core/wire-question.js';
import { DatasetIntegrityError } from './dataset-errors.js';
import { sha256File, sha256Hex } from './file-hash.js';
import { checkRowCount, manifestFileOf, manifestInfo, MANIFEST_FILE, readManifest, verifyManifestFile, type DatasetManifest } from './manifest.js';
import { parquetDownloadUrl, PINNED_PARQUET_SHA256, PINNED_REVISION, typedDecisionsInfo } from './provenance.js';
import { caseFileFormat, readCases } from './read-cases.js';

export type DatasetSource = { readonly kind: 'sample' } | { readonly kind: 'typed-decisions'; readonly cacheDir?: string } | { readonly kind: 'path'; readonly path: string };

export interface LoadedBenchDataset {
  readonly info: DatasetInfo;
  /** Cases of the split, in file order. */
  readonly cases: readonly BenchCase[];
  /** `workflow/qid` -> 16-hex sha256 of the question's canonical text (see `canonicalQuestionText`), keys sorted. */
  readonly questionSet: Readonly<Record<string, string>>;
  /** The file or folder the cases came from. */
  readonly location: string;
  /** The manifest that vouched for the data, or null for a user file without one. */
  readonly manifest: DatasetManifest | null;
}

export interface LoadOptions {
  /** Split to load. Default `test`. */
  readonly split?: string;
}

export const DEFAULT_SPLIT = 'test';

/** The bundled synthetic sample: `data/typed-decisions-sample/` at the package root (from src/ or dist/). */
export function sampleDir(): string {
  return fileURLToPath(new URL('../../../data/typed-decisions-sample/', import.meta.url)).replace(/[\\/]$/, '');
}

export const SAMPLE_RESTORE = 'reinstall decidekit, or in a source checkout run `npx tsx scripts/make-typed-decisions-sample.ts`';

/** `$XDG_CACHE_HOME/decidekit`, else `~/.cache/decidekit`. */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'decidekit');
  const home = env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir();
  return join(home, '.cache', 'decidekit');
}

/** Where a fetched revision of Typed Decisions lives in the cache. */
export function typedDecisionsCacheDir(cacheDir: string, revision: string = PINNED_REVISION): string {
  return join(cacheDir, 'typed-decisions', encodeURIComponent(revision));
}

export function fetchCommand(revision: string): string {
  return revision === PINNED_REVISION ? 'decidekit dataset fetch typed-decisions' : `decidekit dataset fetch typed-decisions --revision ${revision}`;
}

export async function loadBenchDataset(source: DatasetSource, options: LoadOptions = {}): Promise<LoadedBenchDataset> {
  switch (source.kind) {
    case 'sample':
      return loadStoredCopy(sampleDir(), options.split ?? DEFAULT_SPLIT, SAMPLE_RESTORE);
    case 'typed-decisions': {
      const cacheDir = source.cacheDir ?? defaultCacheDir({});
      const dir = typedDecisionsCacheDir(cacheDir);
      if (!(await exists(dir))) {
        throw new DecidekitError(
          'dataset_missing',
          `Typed Decisions is not in the cache: ${dir} (run \`decidekit dataset fetch typed-decisions\` while online, or download ${parquetDownloadUrl(PINNED_REVISION)} yourself and pass \`--dataset <path to the .parquet, .jsonl or .jsonl.gz file>\`)`,
          { context: { dir } },
        );
      }
      return loadStoredCopy(dir, options.split ?? DEFAULT_SPLIT, fetchCommand(PINNED_REVISION));
    }
    case 'path':
      return loadPath(source.path, options.split);
  }
}

/** A folder with `manifest.json` and one decoded file per split, checked against the manifest. */
async function loadStoredCopy(dir: string, split: string, restore: string): Promise<LoadedBenchDataset> {
  const manifest = await readManifest(dir, restore);
  if (manifest === null) {
    throw new DatasetIntegrityError(`${join(dir, MANIFEST_FILE)} is missing`, { file: join(dir, MANIFEST_FILE), restore });
  }
  return loadManifestFile(dir, manifest, split);
}

async function loadManifestFile(dir: string, manifest: DatasetManifest, split: string): Promise<LoadedBenchDataset> {
  const entry = manifestFileOf(manifest, dir, split);
  await verifyManifestFile(dir, entry, manifest.restore);
  const path = join(dir, entry.path);
  const read = await readCases(path);
  checkRowCount(dir, entry, read.rows, manifest.restore);
  return finish(manifestInfo(manifest, split), read.cases, path, manifest, split, read.splits);
}

async function loadPath(path: string, requestedSplit: string | undefined): Promise<LoadedBenchDataset> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DecidekitError('file_unreadable', `cannot read dataset: ${path} (${code === 'ENOENT' ? 'no such file or folder' : err instanceof Error ? err.message : String(err)})`, {
      context: { file: path },
      cause: err,
    });
  }
  if (isDirectory) return loadStoredCopy(path, requestedSplit ?? DEFAULT_SPLIT, `restore the folder ${path} (for Typed Decisions: \`decidekit dataset fetch typed-decisions\`)`);

  const format = caseFileFormat(path);
  if (format === null) {
    throw new InvalidInputError([{ file: path, line: null, message: 'unknown dataset format (expected .parquet, .jsonl or .jsonl.gz, or a folder with manifest.json)' }]);
  }
  // A manifest beside the file vouches for it (and is checked) when it lists the file.
  const dir = dirname(path);
  const manifest = await readManifest(dir, `restore ${path}`);
  const entry = manifest?.files.find((f) => f.path === basename(path));
  if (manifest !== null && manifest !== undefined && entry !== undefined) {
    if (requestedSplit !== undefined && requestedSplit !== entry.split) {
      throw new DecidekitError('split_mismatch', `${path} holds split ${entry.split} (per ${join(dir, MANIFEST_FILE)}), not ${requestedSplit}`, { context: { file: path } });
    }
    return loadManifestFile(dir, manifest, entry.split);
  }

  const split = requestedSplit ?? DEFAULT_SPLIT;
  const read = await readCases(path, { split });
  let info: DatasetInfo = userFileInfo(path, split);
  if (format === 'parquet') {
    // The real file under any name: give it its provenance, so its runs compare with others on it.
    const { sha256 } = await sha256File(path);
    if (sha256 === PINNED_PARQUET_SHA256) info = typedDecisionsInfo(PINNED_REVISION, split);
  }
  return finish(info, read.cases, path, null, split, read.splits);
}

function userFileInfo(path: string, split: string): DatasetInfo {
  const name = basename(path);
  return { id: name, revision: null, split, license: 'unknown', synthetic: false, attribution: `user-supplied file ${name} (provenance unknown)`, url: null };
}

function finish(info: DatasetInfo, cases: readonly BenchCase[], location: string, manifest: DatasetManifest | null, split: string, splits: ReadonlySet<string>): LoadedBenchDataset {
  if (cases.length === 0) {
    const seen = splits.size > 0 ? ` (splits in the file: ${[...splits].sort().join(', ')})` : '';
    throw new InvalidInputError([{ file: location, line: null, message: `no cases of split ${split}${seen}` }]);
  }
  return { info, cases, questionSet: questionSetOf(cases), location, manifest };
}

/** `workflow/qid` -> 16-hex sha256 of each question's canonical text, keys sorted. */
export function questionSetOf(cases: readonly BenchCase[]): Record<string, string> {
  const found = new Map<string, string>();
  for (const c of cases) {
    for (const [qid, question] of c.questions) {
      const key = `${c.workflow}/${qid}`;
      const hash = sha256Hex(canonicalQuestionText(question)).slice(0, 16);
      const seen = found.get(key);
      if (seen !== undefined && seen !== hash) {
        throw new DecidekitError('inconsistent_questions', `question ${key} has two different schemas (case ${c.id}); one question id must mean one question within a workflow`, {
          context: { question: key, caseId: c.id },
        });
      }
      found.set(key, hash);
    }
  }
  const out: Record<string, string> = {};
  for (const key of [...found.keys()].sort()) out[key] = found.get(key)!;
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
