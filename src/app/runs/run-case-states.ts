import type { BenchRun } from '../../core/bench/run.js';
import type { DatasetSource } from '../../datasets/typed-decisions/index.js';
import { defaultCacheDir } from '../../datasets/typed-decisions/default-cache-dir.js';
import { SAMPLE_ID, TYPED_DECISIONS_ID } from '../../datasets/typed-decisions/provenance.js';

/**
 * The case states of a stored run, for the state previews of its Markdown trace, when its
 * dataset is still at hand (the bundled sample or the cached Typed Decisions copy) and its
 * question set is unchanged. Otherwise undefined: the report is rendered without previews.
 */
export async function statesOfRun(
  run: Pick<BenchRun, 'config'>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ReadonlyMap<string, string | object> | undefined> {
  const { dataset } = run.config;
  const source: DatasetSource | null =
    dataset.id === SAMPLE_ID
      ? { kind: 'sample' }
      : dataset.id === TYPED_DECISIONS_ID
        ? { kind: 'typed-decisions', cacheDir: defaultCacheDir(env) }
        : null;
  if (source === null) return undefined;
  try {
    // The dataset reader is loaded only for a run of a dataset it can read again.
    const { loadBenchDataset } = await import('../../datasets/typed-decisions/load-bench-dataset.js');
    const loaded = await loadBenchDataset(source, { split: dataset.split });
    if (loaded.info.revision !== dataset.revision) return undefined;
    const wanted = new Set(run.config.caseIds);
    return new Map(loaded.cases.filter((c) => wanted.has(c.id)).map((c) => [c.id, c.state] as const));
  } catch {
    return undefined;
  }
}
