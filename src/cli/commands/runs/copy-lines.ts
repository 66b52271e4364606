import type { CopiedRun } from '../../../app/runs/copy-runs.js';
import { shownStoreLocation } from '../../../core/store-url.js';

/** One line a run: copied (with its cases) or already there, naming where (without a password). */
export function renderCopiedRuns(copied: readonly CopiedRun[], verb: 'pushed' | 'pulled', to: string): string {
  const where = shownStoreLocation(to);
  return copied
    .map((c) =>
      c.outcome === 'copied'
        ? `${verb} run ${c.id} (${c.cases} case${c.cases === 1 ? '' : 's'}) to ${where}\n`
        : `run ${c.id} already there in ${where}: nothing changed\n`,
    )
    .join('');
}
