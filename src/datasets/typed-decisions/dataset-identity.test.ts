import { describe, expect, it } from 'vitest';
import { fileIdentity, isPinnedTypedDecisionsFile, manifestFileIdentity } from './dataset-identity.js';
import { MANIFEST_FORMAT, type DatasetManifest } from './manifest.js';
import {
  PINNED_PARQUET_SHA256,
  PINNED_REVISION,
  SAMPLE_ID,
  TYPED_DECISIONS_ID,
  TYPED_DECISIONS_URL,
  typedDecisionsAttribution,
  typedDecisionsInfo,
} from './provenance.js';

/** Stands for the pinned hash in the rule's tests (only the real file has the real one). */
const PINNED = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);

function manifest(over: Partial<DatasetManifest> = {}): DatasetManifest {
  return {
    format: MANIFEST_FORMAT,
    id: TYPED_DECISIONS_ID,
    url: TYPED_DECISIONS_URL,
    revision: PINNED_REVISION,
    license: 'Apache-2.0',
    synthetic: false,
    attribution: typedDecisionsAttribution(PINNED_REVISION),
    source: null,
    generator: null,
    files: [{ split: 'test', path: 'test.jsonl.gz', sha256: OTHER, bytes: 10, rows: 400 }],
    restore: 'decidekit dataset fetch typed-decisions',
    ...over,
  };
}

describe('dataset identity', () => {
  it('compares with the pinned hash of the real file by default', () => {
    expect(isPinnedTypedDecisionsFile('/c/test-00000-of-00001.parquet', PINNED_PARQUET_SHA256)).toBe(true);
    expect(isPinnedTypedDecisionsFile('/c/test.jsonl.gz', PINNED_PARQUET_SHA256)).toBe(false);
    expect(isPinnedTypedDecisionsFile('/c/test-00000-of-00001.parquet', OTHER)).toBe(false);
  });

  it('makes a manifest naming Typed Decisions over another file a custom dataset named after the file', () => {
    const info = manifestFileIdentity(manifest(), { path: '/c/td/test.jsonl.gz', sha256: OTHER }, 'test', {
      pinned: PINNED,
    });
    expect(info).toEqual({
      id: 'test.jsonl.gz',
      revision: null,
      split: 'test',
      license: 'unknown',
      synthetic: false,
      attribution:
        'custom dataset test.jsonl.gz: its manifest names LocalLLaMA/typed-decisions, but its files do not have the pinned sha256, so its numbers are not Typed Decisions scores (`decidekit dataset fetch typed-decisions` stores the verified file)',
      url: null,
      file: { path: '/c/td/test.jsonl.gz', sha256: OTHER },
    });
  });

  it('sees the claim in the id in any case and spacing, and in the url', () => {
    for (const over of [{ id: ' localllama/Typed-Decisions ' }, { id: 'mine', url: TYPED_DECISIONS_URL }])
      expect(
        manifestFileIdentity(manifest(over), { path: '/x.jsonl', sha256: OTHER }, 'test', { pinned: PINNED }).id,
      ).toBe('x.jsonl');
  });

  it('keeps a synthetic claim: saying less than the truth misleads nobody', () => {
    const info = manifestFileIdentity(manifest({ synthetic: true }), { path: '/x.jsonl', sha256: OTHER }, 'test');
    expect(info.synthetic).toBe(true);
  });

  it('gives the pinned file the real identity whatever the manifest beside it says', () => {
    const lying = manifest({ id: 'mine', url: null, revision: 'v9', synthetic: true, attribution: 'my own data' });
    const file = { path: '/c/renamed.parquet', sha256: PINNED };
    expect(manifestFileIdentity(lying, file, 'test', { pinned: PINNED })).toEqual(
      typedDecisionsInfo(PINNED_REVISION, 'test'),
    );
    expect(fileIdentity(file.path, 'test', PINNED, PINNED)).toEqual(typedDecisionsInfo(PINNED_REVISION, 'test'));
  });

  it('takes the id of a manifest that does not name Typed Decisions as it is', () => {
    const info = manifestFileIdentity(
      manifest({ id: 'acme/decisions', url: null, revision: 'v2', license: 'MIT', attribution: 'Acme, MIT' }),
      { path: '/x.jsonl', sha256: OTHER },
      'test',
      { pinned: PINNED },
    );
    expect(info).toEqual({
      id: 'acme/decisions',
      revision: 'v2',
      split: 'test',
      license: 'MIT',
      synthetic: false,
      attribution: 'Acme, MIT',
      url: null,
    });
  });

  it("gives the sample its name only in decidekit's own copy", () => {
    const sample = manifest({ id: SAMPLE_ID, url: null, synthetic: true, attribution: 'synthetic sample' });
    const file = { path: '/copy/test.jsonl', sha256: OTHER };
    expect(manifestFileIdentity(sample, file, 'test', { bundledSample: true }).id).toBe(SAMPLE_ID);
    const copy = manifestFileIdentity(sample, file, 'test', { bundledSample: false });
    expect(copy).toMatchObject({ id: 'test.jsonl', synthetic: true, file });
    expect(copy.attribution).toBe(
      `custom dataset test.jsonl: its manifest names the bundled synthetic sample (${SAMPLE_ID}), but it is not decidekit's own copy`,
    );
  });

  it('names a user file without a manifest by its name, provenance unknown', () => {
    expect(fileIdentity('/d/mine.parquet', 'test', OTHER, PINNED)).toMatchObject({
      id: 'mine.parquet',
      revision: null,
      file: { path: '/d/mine.parquet', sha256: OTHER },
    });
  });
});
