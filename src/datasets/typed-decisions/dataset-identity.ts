/**
 * Who a dataset is. The real Typed Decisions is earned by its bytes: the parquet file whose
 * sha256 is the pinned one, under any name, with or without a manifest. A manifest that names
 * Typed Decisions over any other file is a claim nobody checked (a hand-written one over
 * synthetic cases, a copy fetched at an unpinned revision, a copy of an older cache format),
 * so its data is a custom dataset and its attribution says why.
 */
import { basename } from 'node:path';
import type { DatasetInfo } from '../../core/typed-decisions/dataset-info.js';
import { datasetFetchCommand } from '../../core/command-hints.js';
import type { DatasetManifest } from './manifest.js';
import {
  PINNED_PARQUET_SHA256,
  PINNED_REVISION,
  SAMPLE_ID,
  TYPED_DECISIONS_ID,
  TYPED_DECISIONS_URL,
  typedDecisionsInfo,
} from './provenance.js';

/**
 * True for the pinned Typed Decisions parquet file: its sha256 (of the bytes read) is the
 * pinned one. `pinned` is the hash to compare with: only the real file has the default, so
 * the rule's tests pass the hash of a file of theirs.
 */
export function isPinnedTypedDecisionsFile(
  path: string,
  sha256: string,
  pinned: string = PINNED_PARQUET_SHA256,
): boolean {
  return path.endsWith('.parquet') && sha256 === pinned;
}

/** Where a manifest's file was read, as far as its identity goes. */
export interface IdentityOptions {
  /** True when the manifest is the bundled sample's own (in decidekit's `data/` folder). */
  readonly bundledSample?: boolean;
  /** The hash to compare with (default: the pinned one): see {@link isPinnedTypedDecisionsFile}. */
  readonly pinned?: string;
}

/**
 * The identity of a case file read under `manifest`, whose sha256 was checked against the
 * file: the real Typed Decisions for the pinned file; the synthetic sample for the bundled
 * copy; else the manifest's own id, unless it names Typed Decisions or the sample, which
 * only their own files may carry (a custom dataset named after the file instead).
 */
export function manifestFileIdentity(
  manifest: DatasetManifest,
  file: { readonly path: string; readonly sha256: string },
  split: string,
  options: IdentityOptions = {},
): DatasetInfo {
  if (isPinnedTypedDecisionsFile(file.path, file.sha256, options.pinned ?? PINNED_PARQUET_SHA256))
    return typedDecisionsInfo(PINNED_REVISION, split);
  const claimed = claimedName(manifest, options.bundledSample === true);
  if (claimed === null)
    return {
      id: manifest.id,
      revision: manifest.revision,
      split,
      license: manifest.license,
      synthetic: manifest.synthetic,
      attribution: manifest.attribution,
      url: manifest.url,
    };
  const name = basename(file.path);
  return {
    ...userFileIdentity(file.path, split, file.sha256),
    synthetic: manifest.synthetic,
    attribution: `custom dataset ${name}: ${claimed}`,
  };
}

/** A user file without a manifest: the real parquet file under any name, else a file of unknown provenance. */
export function fileIdentity(
  path: string,
  split: string,
  sha256: string,
  pinned: string = PINNED_PARQUET_SHA256,
): DatasetInfo {
  if (isPinnedTypedDecisionsFile(path, sha256, pinned)) return typedDecisionsInfo(PINNED_REVISION, split);
  return userFileIdentity(path, split, sha256);
}

function userFileIdentity(path: string, split: string, sha256: string): DatasetInfo {
  const name = basename(path);
  return {
    id: name,
    revision: null,
    split,
    license: 'unknown',
    synthetic: false,
    attribution: `user-supplied file ${name} (provenance unknown)`,
    url: null,
    file: { path, sha256 },
  };
}

/** Why a manifest's name is not its files' (a name only other files may carry), or null. */
function claimedName(manifest: DatasetManifest, bundledSample: boolean): string | null {
  const same = (a: string | null, b: string) => a !== null && a.trim().toLowerCase() === b.toLowerCase();
  if (same(manifest.id, TYPED_DECISIONS_ID) || same(manifest.url, TYPED_DECISIONS_URL))
    return `its manifest names ${TYPED_DECISIONS_ID}, but its files do not have the pinned sha256, so its numbers are not Typed Decisions scores (\`${datasetFetchCommand()}\` stores the verified file)`;
  if (same(manifest.id, SAMPLE_ID) && !bundledSample)
    return `its manifest names the bundled synthetic sample (${SAMPLE_ID}), but it is not decidekit's own copy`;
  return null;
}
