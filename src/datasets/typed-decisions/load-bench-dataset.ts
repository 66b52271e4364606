/** Loads benchmark cases: the bundled sample, the fetched Typed Decisions copy, or a user file. */
import type { QuestionType } from '../../core/question.js';
import { stat } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import type { DatasetInfo } from '../../core/typed-decisions/dataset-info.js';
import { closest } from '../../core/closest-word.js';
import { DecidekitError, InvalidInputError, OptionError } from '../../core/errors.js';
import { DATASET_FILE_FLAG, datasetFetchCommand } from '../../core/command-hints.js';
import { words } from '../../core/message-words.js';
import { DatasetIntegrityError } from './dataset-errors.js';
import { defaultCacheDir } from './default-cache-dir.js';
import { sha256File } from './file-hash.js';
import { questionSetOf } from './question-set.js';
import {
  refuseWrongRowCount,
  manifestFileOf,
  MANIFEST_FILE,
  readManifest,
  verifyManifestFile,
  type DatasetManifest,
} from './manifest.js';
import { parquetDownloadUrl, PINNED_REVISION } from './provenance.js';
import { fileIdentity, manifestFileIdentity } from './dataset-identity.js';
import { caseFileFormat, readCases, type ReadCasesOptions, type ReadCasesResult } from './read-cases.js';
import { scanCaseFile, type CaseEntry, type ScannedCaseFile } from './scan-cases.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { IrregularFileError, irregularCodeOf } from '../input-file.js';

export type DatasetSource =
  | { readonly kind: 'sample' }
  | { readonly kind: 'typed-decisions'; readonly cacheDir?: string }
  | { readonly kind: 'path'; readonly path: string };

export interface LoadedBenchDataset {
  readonly info: DatasetInfo;
  /** Cases of the split, in file order. */
  readonly cases: readonly TypedDecisionsCase[];
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
  return fileURLToPath(new URL('../../../data/typed-decisions-sample', import.meta.url)).replace(/[\\/]$/, '');
}

export { defaultCacheDir, questionSetOf };

export const SAMPLE_RESTORE =
  'reinstall decidekit, or in a source checkout run `npx tsx scripts/make-typed-decisions-sample.ts`';

/** Where a fetched revision of Typed Decisions lives in the cache. */
export function typedDecisionsCacheDir(cacheDir: string, revision: string = PINNED_REVISION): string {
  return join(cacheDir, 'typed-decisions', encodeURIComponent(revision));
}

export function fetchCommand(revision: string): string {
  return datasetFetchCommand(revision === PINNED_REVISION ? undefined : revision);
}

export async function loadBenchDataset(source: DatasetSource, options: LoadOptions = {}): Promise<LoadedBenchDataset> {
  return loadedOf(await readSplit(await locate(source), options.split, readCases));
}

/**
 * A dataset checked completely (as `loadBenchDataset` checks it, with the same errors)
 * without holding its cases: what planning needs of each case, and a second pass that
 * reads the chosen cases again while they are sent.
 */
export interface ScannedBenchDataset {
  readonly info: DatasetInfo;
  /** As `LoadedBenchDataset.questionSet`. */
  readonly questionSet: Readonly<Record<string, string>>;
  /** `workflow/qid` -> the question's type. */
  readonly questionTypes: Readonly<Record<string, QuestionType>>;
  readonly location: string;
  /** The cases of the split, in file order: id, workflow, question count. */
  readonly entries: readonly CaseEntry[];
  /** Reads the cases of `entries` (some of `this.entries`, in order) again: see {@link ScannedCaseFile.readCases}. */
  readonly readCases: ScannedCaseFile['readCases'];
}

/** Pass 1 of a dataset: every row checked, no case kept (see `scan-cases.ts`). */
export async function scanBenchDataset(source: DatasetSource, options: LoadOptions = {}): Promise<ScannedBenchDataset> {
  const { info, path, split, read } = await readSplit(await locate(source), options.split, scanCaseFile);
  refuseNoCases(read.entries.length, path, split, read.splits);
  return {
    info,
    questionSet: read.questionSet,
    questionTypes: read.questionTypes,
    location: path,
    entries: read.entries,
    readCases: read.readCases,
  };
}

export interface VerifiedDataset {
  /** Provenance of the dataset (for a user file without a manifest: its name, unknown provenance). */
  readonly info: DatasetInfo;
  readonly location: string;
  readonly manifest: DatasetManifest | null;
  /** Every split checked; `split` is null for a file without a manifest (all its rows). */
  readonly splits: readonly { readonly split: string | null; readonly rows: number; readonly cases: number }[];
}

/**
 * Checks a dataset completely: every split a manifest lists (presence, size, sha256, row
 * count, every row), or every row of a file without one. Throws on the first failure;
 * no case is kept (pass 1 of `scan-cases.ts`).
 */
export async function verifyBenchDataset(source: DatasetSource): Promise<VerifiedDataset> {
  const where = await locate(source);
  switch (where.kind) {
    case 'stored':
    case 'listed-file': {
      const files =
        where.kind === 'stored' ? where.manifest.files : where.manifest.files.filter((f) => f.split === where.split);
      const splits: { split: string; rows: number; cases: number }[] = [];
      const infos: DatasetInfo[] = [];
      for (const f of files) {
        const checked = await readManifestFile(where.dir, where.manifest, f.split, scanCaseFile);
        refuseNoCases(checked.read.entries.length, checked.path, f.split, checked.read.splits);
        infos.push(checked.info);
        splits.push({ split: f.split, rows: f.rows, cases: checked.read.entries.length });
      }
      return {
        // A manifest lists one file at least; the first split's identity names the dataset.
        info: infos[0]!,
        location: where.kind === 'stored' ? where.dir : where.path,
        manifest: where.manifest,
        splits,
      };
    }
    case 'file': {
      const read = await scanCaseFile(where.path);
      if (read.entries.length === 0)
        throw new InvalidInputError([{ file: where.path, line: null, message: 'no cases (the file holds no rows)' }]);
      return {
        info: await fileInfo(where.path, DEFAULT_SPLIT),
        location: where.path,
        manifest: null,
        splits: [{ split: null, rows: read.rows, cases: read.entries.length }],
      };
    }
  }
}

type Located =
  | { readonly kind: 'stored'; readonly dir: string; readonly manifest: DatasetManifest }
  | {
      readonly kind: 'listed-file';
      readonly dir: string;
      readonly path: string;
      readonly manifest: DatasetManifest;
      readonly split: string;
    }
  | { readonly kind: 'file'; readonly path: string };

/** Finds the data and the manifest that vouches for it (checked later, per file). */
async function locate(source: DatasetSource): Promise<Located> {
  switch (source.kind) {
    case 'sample':
      return storedCopy(sampleDir(), SAMPLE_RESTORE);
    case 'typed-decisions': {
      const cacheDir = source.cacheDir ?? defaultCacheDir({});
      const dir = typedDecisionsCacheDir(cacheDir);
      if (!(await exists(dir))) {
        throw new DecidekitError(
          'dataset_missing',
          `Typed Decisions is not in the cache: ${dir} (run \`${datasetFetchCommand()}\` while online, or download ${parquetDownloadUrl(PINNED_REVISION)} yourself and pass \`${DATASET_FILE_FLAG}\` in the folder that holds it)`,
          { context: { dir } },
        );
      }
      return storedCopy(dir, fetchCommand(PINNED_REVISION));
    }
    case 'path':
      return locatePath(source.path);
  }
}

async function storedCopy(dir: string, restore: string, handWritten = false): Promise<Located> {
  const manifest = await readManifest(dir, restore, { handWritten });
  if (manifest === null)
    throw new DatasetIntegrityError(`${join(dir, MANIFEST_FILE)} is missing`, {
      file: join(dir, MANIFEST_FILE),
      restore,
    });
  return { kind: 'stored', dir, manifest };
}

async function locatePath(path: string): Promise<Located> {
  let isDirectory: boolean;
  try {
    const code = irregularCodeOf(await stat(path));
    isDirectory = code === 'EISDIR';
    if (code !== null && !isDirectory) throw new IrregularFileError(path, code);
  } catch (err) {
    throw new DecidekitError('file_unreadable', `cannot read dataset: ${path} (${fileErrorWords(err)})`, {
      context: { file: path },
      cause: err,
    });
  }
  if (isDirectory)
    return storedCopy(
      path,
      `restore the folder ${path} (for Typed Decisions: \`decidekit dataset fetch typed-decisions\`)`,
      true,
    );
  if (caseFileFormat(path) === null) {
    throw new InvalidInputError([
      {
        file: path,
        line: null,
        message: 'unknown dataset format (expected .parquet, .jsonl or .jsonl.gz, or a folder with manifest.json)',
      },
    ]);
  }
  // A manifest beside the file vouches for it (and is checked) when it lists the file.
  const dir = dirname(path);
  const manifest = await readManifest(dir, `restore ${path}`, { handWritten: true });
  const entry = manifest?.files.find((f) => f.path === basename(path));
  if (manifest !== null && entry !== undefined) return { kind: 'listed-file', dir, path, manifest, split: entry.split };
  return { kind: 'file', path };
}

/**
 * A split asked for by name that the manifest does not list is a typo, not damage: a usage
 * error listing the splits there are (a missing default split stays an integrity failure).
 */
function refuseUnknownSplit(manifest: DatasetManifest, dir: string, split: string): void {
  const splits = manifest.files.map((f) => f.split);
  if (splits.includes(split)) return;
  const guess = closest(split, splits);
  throw new OptionError(
    'split',
    words`no split ${JSON.stringify(split)} in ${dir} (its splits: ${splits.join(', ')}${guess === null ? '' : `; did you mean ${guess}?`})`,
  );
}

/** The split of a file a manifest lists; asking for another one is an error. */
function listedSplit(where: Located & { readonly kind: 'listed-file' }, asked: string | undefined): string {
  if (asked !== undefined && asked !== where.split) {
    throw new DecidekitError(
      'split_mismatch',
      `${where.path} holds split ${where.split} (per ${join(where.dir, MANIFEST_FILE)}), not ${asked}`,
      { context: { file: where.path } },
    );
  }
  return where.split;
}

/** A split's case file read by `read` (`readCases`, or `scanCaseFile` for pass 1), with where it is and its provenance. */
interface ReadSplit<R> {
  readonly read: R;
  readonly info: DatasetInfo;
  readonly path: string;
  readonly split: string;
  readonly manifest: DatasetManifest | null;
}

type CaseFileReader<R> = (path: string, options: ReadCasesOptions) => Promise<R>;

/**
 * The case file of the split asked for (default: the default split) of a located dataset,
 * read by `read`; a file a manifest lists is checked as the manifest vouches (size, sha256,
 * row count).
 */
async function readSplit<R extends { readonly rows: number }>(
  where: Located,
  asked: string | undefined,
  read: CaseFileReader<R>,
): Promise<ReadSplit<R>> {
  switch (where.kind) {
    case 'stored':
      if (asked !== undefined) refuseUnknownSplit(where.manifest, where.dir, asked);
      return readManifestFile(where.dir, where.manifest, asked ?? DEFAULT_SPLIT, read);
    case 'listed-file':
      return readManifestFile(where.dir, where.manifest, listedSplit(where, asked), read);
    case 'file': {
      const split = asked ?? DEFAULT_SPLIT;
      const cases = await read(where.path, { split });
      return { read: cases, info: await fileInfo(where.path, split), path: where.path, split, manifest: null };
    }
  }
}

async function readManifestFile<R extends { readonly rows: number }>(
  dir: string,
  manifest: DatasetManifest,
  split: string,
  read: CaseFileReader<R>,
): Promise<ReadSplit<R>> {
  const entry = manifestFileOf(manifest, dir, split);
  await verifyManifestFile(dir, entry, manifest.restore);
  const path = join(dir, entry.path);
  // A file holding rows of several splits (the dataset's own parquet) gives those of its entry.
  const cases = await read(path, { split });
  refuseWrongRowCount(dir, entry, cases.rows, manifest.restore);
  return {
    read: cases,
    info: manifestFileIdentity(manifest, { path, sha256: entry.sha256 }, split, {
      bundledSample: isBundledSample(dir),
    }),
    path,
    split,
    manifest,
  };
}

/** A user file without a manifest: the real parquet under any name gets its provenance, so its runs compare with others on it. */
async function fileInfo(path: string, split: string): Promise<DatasetInfo> {
  return fileIdentity(path, split, (await sha256File(path)).sha256);
}

function loadedOf({ info, read, path, manifest, split }: ReadSplit<ReadCasesResult>): LoadedBenchDataset {
  refuseNoCases(read.cases.length, path, split, read.splits);
  return { info, cases: read.cases, questionSet: read.questionSet, location: path, manifest };
}

function refuseNoCases(count: number, location: string, split: string, splits: ReadonlySet<string>): void {
  if (count > 0) return;
  const seen = splits.size > 0 ? ` (splits in the file: ${[...splits].sort().join(', ')})` : '';
  throw new InvalidInputError([{ file: location, line: null, message: `no cases of split ${split}${seen}` }]);
}

/** The folder is decidekit's own sample (through any symbolic link). */
function isBundledSample(dir: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return real(dir) === real(sampleDir());
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
