/**
 * The offline validation use case: check a dataset and results files against the formats,
 * collecting one check per file (a file that cannot be read at all is one whole-file
 * problem, never a crash).
 */
import { DecidekitError, InvalidInputError } from '../../core/errors.js';
import { caseTableOf, loadOfflineDataset, type OfflineDataset } from '../../datasets/offline/dataset.js';
import { readResults } from '../../datasets/offline/results.js';
import type { FileCheck } from '../../core/offline/scored-files.js';

/** One check per file: the dataset first, then each results file in the order given. */
export async function validateFiles(datasetPath: string, resultsPaths: readonly string[]): Promise<FileCheck[]> {
  const checks: FileCheck[] = [];
  let dataset: OfflineDataset | null = null;
  try {
    dataset = await loadOfflineDataset(datasetPath);
    // Counted from the column store: a large dataset never becomes a million objects here.
    const [yesNo, choice, score] = caseTableOf(dataset).countKinds();
    checks.push({
      role: 'dataset',
      path: datasetPath,
      ok: true,
      cases: yesNo + choice + score,
      byKind: { yesNo, choice, score },
    });
  } catch (err) {
    checks.push(failed('dataset', datasetPath, err));
  }
  for (const path of resultsPaths) {
    if (dataset === null) {
      checks.push({ role: 'results', path, ok: null, reason: 'not checked: the dataset is invalid' });
      continue;
    }
    try {
      const r = await readResults(path, dataset, () => {});
      checks.push({ role: 'results', path, ok: true, model: r.model, lines: r.lines, missing: r.missing });
    } catch (err) {
      checks.push(failed('results', path, err));
    }
  }
  return checks;
}

function failed(role: 'dataset' | 'results', path: string, err: unknown): FileCheck {
  if (err instanceof InvalidInputError) return { role, path, ok: false, problems: err.problems, omitted: err.omitted };
  if (err instanceof DecidekitError)
    return { role, path, ok: false, problems: [{ file: path, line: null, message: err.message }], omitted: 0 };
  throw err;
}
