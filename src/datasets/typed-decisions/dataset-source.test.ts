import { describe, expect, it } from 'vitest';
import { datasetValueOf, NAMED_DATASETS, parseDatasetSource } from './dataset-source.js';
import { SAMPLE_ID, TYPED_DECISIONS_ID } from './provenance.js';

describe('parseDatasetSource', () => {
  it('reads the sample by default and by name', () => {
    expect(parseDatasetSource(undefined, '/w', '/cache')).toEqual({ kind: 'sample' });
    expect(parseDatasetSource('sample', '/w', '/cache')).toEqual({ kind: 'sample' });
  });

  it('reads Typed Decisions from the given cache and anything else as a path from cwd', () => {
    expect(parseDatasetSource('typed-decisions', '/w', '/cache')).toEqual({
      kind: 'typed-decisions',
      cacheDir: '/cache',
    });
    expect(parseDatasetSource('data/x.jsonl', '/w', '/cache')).toEqual({ kind: 'path', path: '/w/data/x.jsonl' });
    expect(parseDatasetSource('/abs/x.parquet', '/w', '/cache')).toEqual({ kind: 'path', path: '/abs/x.parquet' });
  });
});

describe('datasetValueOf', () => {
  it('names the datasets known by name and gives null for a file', () => {
    expect(datasetValueOf({ id: SAMPLE_ID })).toBe('sample');
    expect(datasetValueOf({ id: TYPED_DECISIONS_ID })).toBe('typed-decisions');
    expect(datasetValueOf({ id: 'file:cases.jsonl' })).toBeNull();
  });

  it('round-trips every named dataset through parseDatasetSource', () => {
    for (const name of NAMED_DATASETS) expect(parseDatasetSource(name, '/w', '/c').kind).toBe(name);
  });
});
