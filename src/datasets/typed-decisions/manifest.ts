/**
 * `manifest.json` beside a stored dataset copy: where the data came from and what its files
 * must hash to. Checked on every load, so a truncated or edited copy never scores a model.
 */
import { parseStrictJson } from '../../core/strict-json.js';
import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isRecord, preview } from '../../core/json-value.js';
import { DatasetIntegrityError, InvalidManifestError } from './dataset-errors.js';
import { sha256File } from './file-hash.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { IrregularFileError, irregularCodeOf, refuseIrregularFile } from '../input-file.js';
import { DecidekitError } from '../../core/errors.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'decidekit-dataset-manifest/1';

export interface ManifestFile {
  readonly split: string;
  /** Relative to the manifest's folder. */
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
  /** Data rows (non-blank lines). */
  readonly rows: number;
}

export interface DatasetManifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly id: string;
  readonly url: string | null;
  readonly revision: string | null;
  readonly license: string;
  readonly synthetic: boolean;
  readonly attribution: string;
  /** The file the stored copy was converted from, or null for generated data. */
  readonly source: {
    readonly url: string | null;
    readonly path: string;
    readonly sha256: string;
    /** True when the sha256 was checked against a value pinned before the download. */
    readonly sha256Pinned: boolean;
  } | null;
  /** The generator of synthetic data (script and seed), or null. */
  readonly generator: { readonly script: string; readonly seed: number } | null;
  /** One file per split, decoded rows as JSONL or JSONL.gz. */
  readonly files: readonly ManifestFile[];
  /** The command that restores this copy, quoted in every integrity error. */
  readonly restore: string;
}

/** The manifest as stable, pretty JSON (keys in a fixed order, trailing newline). */
export function renderManifest(m: DatasetManifest): string {
  return `${JSON.stringify(
    {
      format: m.format,
      id: m.id,
      url: m.url,
      revision: m.revision,
      license: m.license,
      synthetic: m.synthetic,
      attribution: m.attribution,
      source:
        m.source === null
          ? null
          : { url: m.source.url, path: m.source.path, sha256: m.source.sha256, sha256_pinned: m.source.sha256Pinned },
      generator: m.generator === null ? null : { script: m.generator.script, seed: m.generator.seed },
      files: m.files.map((f) => ({ split: f.split, path: f.path, sha256: f.sha256, bytes: f.bytes, rows: f.rows })),
      restore: m.restore,
    },
    null,
    2,
  )}\n`;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Reads and checks `<dir>/manifest.json`; null when there is none. A manifest that breaks
 * the format is damage in a folder decidekit wrote (`restore` says how to restore it), and a
 * mistake to fix in one given as the dataset (`handWritten`).
 */
export async function readManifest(
  dir: string,
  restore: string,
  options: { readonly handWritten?: boolean } = {},
): Promise<DatasetManifest | null> {
  const path = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    await refuseIrregularFile(path);
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DatasetIntegrityError(`cannot read ${path} (${fileErrorWords(err)})`, { file: path, restore }, err);
  }
  const problem = (what: string) =>
    options.handWritten === true
      ? new InvalidManifestError(path, what)
      : new DatasetIntegrityError(`${path}: ${what}`, { file: path, restore });
  const parsed = parseStrictJson(text);
  if (!parsed.ok) throw problem(parsed.problem === 'syntax' ? `not valid JSON (${parsed.message})` : parsed.message);
  const value = parsed.value;
  if (!isRecord(value) || value['format'] !== MANIFEST_FORMAT)
    throw problem(`not a decidekit dataset manifest (format must be ${JSON.stringify(MANIFEST_FORMAT)})`);
  const str = (key: string): string => {
    const v = value[key];
    if (typeof v !== 'string' || v.length === 0) throw problem(`${key} must be a non-empty string, got ${preview(v)}`);
    return v;
  };
  const strOrNull = (key: string): string | null => (value[key] === null ? null : str(key));
  const synthetic = value['synthetic'];
  if (typeof synthetic !== 'boolean') throw problem(`synthetic must be true or false, got ${preview(synthetic)}`);
  const filesValue = value['files'];
  if (!Array.isArray(filesValue) || filesValue.length === 0) throw problem('files must be a non-empty array');
  const files = filesValue.map((f: unknown, i): ManifestFile => {
    if (!isRecord(f)) throw problem(`files[${i}] must be an object`);
    const { split, path: file, sha256, bytes, rows } = f;
    if (typeof split !== 'string' || split.length === 0)
      throw problem(`files[${i}].split must be a non-empty string, got ${preview(split)}`);
    if (typeof file !== 'string' || file.length === 0 || file !== basename(file))
      throw problem(`files[${i}].path must be a file name in the manifest's folder, got ${preview(file)}`);
    if (typeof sha256 !== 'string' || !SHA256.test(sha256))
      throw problem(`files[${i}].sha256 must be 64 lower-case hex digits, got ${preview(sha256)}`);
    if (!Number.isSafeInteger(bytes) || (bytes as number) < 0)
      throw problem(`files[${i}].bytes must be a whole number, got ${preview(bytes)}`);
    if (!Number.isSafeInteger(rows) || (rows as number) < 0)
      throw problem(`files[${i}].rows must be a whole number, got ${preview(rows)}`);
    return { split, path: file, sha256, bytes: bytes as number, rows: rows as number };
  });
  files.forEach((f, i) => {
    const first = files.findIndex((g) => g.path === f.path || g.split === f.split);
    if (first !== i)
      throw problem(
        files[first]!.path === f.path
          ? `files[${i}] lists ${f.path} again (first as files[${first}]): each file once`
          : `files[${i}] gives the split ${f.split} again (first in files[${first}]): each split once`,
      );
  });
  const source = value['source'];
  let parsedSource: DatasetManifest['source'] = null;
  if (source !== null) {
    if (
      !isRecord(source) ||
      typeof source['path'] !== 'string' ||
      typeof source['sha256'] !== 'string' ||
      !SHA256.test(source['sha256'])
    ) {
      throw problem('source must be null or {url, path, sha256, sha256_pinned}');
    }
    parsedSource = {
      url: typeof source['url'] === 'string' ? source['url'] : null,
      path: source['path'],
      sha256: source['sha256'],
      sha256Pinned: source['sha256_pinned'] === true,
    };
  }
  const generator = value['generator'];
  let parsedGenerator: DatasetManifest['generator'] = null;
  if (generator !== null && generator !== undefined) {
    if (!isRecord(generator) || typeof generator['script'] !== 'string' || !Number.isSafeInteger(generator['seed']))
      throw problem('generator must be null or {script, seed}');
    parsedGenerator = { script: generator['script'], seed: generator['seed'] as number };
  }
  return {
    format: MANIFEST_FORMAT,
    id: str('id'),
    url: strOrNull('url'),
    revision: strOrNull('revision'),
    license: str('license'),
    synthetic,
    attribution: str('attribution'),
    source: parsedSource,
    generator: parsedGenerator,
    files,
    restore: typeof value['restore'] === 'string' && value['restore'].length > 0 ? value['restore'] : restore,
  };
}

/** The manifest entry of a split, or an integrity error naming the splits it has. */
export function manifestFileOf(m: DatasetManifest, dir: string, split: string): ManifestFile {
  const entry = m.files.find((f) => f.split === split);
  if (entry === undefined) {
    throw new DatasetIntegrityError(
      `${join(dir, MANIFEST_FILE)} has no split ${JSON.stringify(split)} (splits: ${m.files.map((f) => f.split).join(', ')})`,
      {
        file: join(dir, MANIFEST_FILE),
        restore: m.restore,
      },
    );
  }
  return entry;
}

/**
 * Checks a stored file against its manifest entry: present, same size, same sha256.
 * (The row count is checked by the reader, which counts rows while it parses.)
 */
export async function verifyManifestFile(dir: string, entry: ManifestFile, restore: string): Promise<void> {
  const path = join(dir, entry.path);
  const fail = (what: string, cause?: unknown) =>
    new DatasetIntegrityError(`${path} ${what}`, { file: path, restore }, cause);
  let stats: Stats;
  try {
    stats = await stat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw fail('is missing', err);
    throw fail(`cannot be read (${fileErrorWords(err)})`, err);
  }
  // A FIFO or a device has no size to compare: it is not a damaged copy but no file at all,
  // refused as every input that is not a regular file is.
  const irregular = irregularCodeOf(stats);
  if (irregular !== null) {
    const err = new IrregularFileError(path, irregular);
    throw new DecidekitError('file_unreadable', `cannot read file: ${path} (${fileErrorWords(err)})`, {
      context: { file: path },
      cause: err,
    });
  }
  const size = stats.size;
  if (size < entry.bytes) throw fail(`is truncated: ${size} of ${entry.bytes} bytes`);
  if (size > entry.bytes) throw fail(`has changed: ${size} bytes, the manifest says ${entry.bytes}`);
  const { sha256 } = await sha256File(path);
  if (sha256 !== entry.sha256)
    throw fail(
      `was edited or corrupted: sha256 ${sha256.slice(0, 16)}…, the manifest says ${entry.sha256.slice(0, 16)}…`,
    );
}

/** Refuses a file whose rows, as the reader counted them, are not as many as the manifest says. */
export function refuseWrongRowCount(dir: string, entry: ManifestFile, rows: number, restore: string): void {
  if (rows !== entry.rows) {
    const path = join(dir, entry.path);
    throw new DatasetIntegrityError(`${path} has ${rows} rows, the manifest says ${entry.rows}`, {
      file: path,
      restore,
    });
  }
}
