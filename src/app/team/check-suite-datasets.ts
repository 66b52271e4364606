/**
 * A suite's datasets checked before any request: each dataset read once (as bench reads it)
 * and each entry's workflow looked for in it, so a file that is no dataset, a dataset not
 * downloaded or a workflow the dataset lacks is named once, at its line and field, instead of
 * once a model after the valid jobs have run.
 */
import { DecidekitError, InvalidInputError, formatProblem, type InputProblem } from '../../core/errors.js';
import { DATASET_FILE_FLAG } from '../../core/command-hints.js';
import { spellForLibrary } from '../../core/message-words.js';
import { fieldName } from '../../core/team/parse-suite.js';
import { scanBenchDataset } from '../../datasets/typed-decisions/load-bench-dataset.js';
import { datasetSourceOf, type DatasetChoice } from '../dataset-choice.js';
import { datasetPathOf, type ReadSuite } from './read-suite.js';

/** Throws every dataset problem of the suite at once; `cacheDir` is where `typed-decisions` is cached. */
export async function refuseUnusableDatasets(read: ReadSuite, cacheDir: string | undefined): Promise<void> {
  // Each dataset read once, however many entries name it: its workflows, or why it cannot be read.
  const scans = new Map<string, Promise<{ workflows: string[] } | { why: string }>>();
  const problems: InputProblem[] = [];
  const at = (path: (string | number)[], message: string): void => {
    problems.push({
      file: read.file,
      line: read.lineOf(path),
      field: fieldName(path),
      message: `${fieldName(path)}: ${message}`,
    });
  };
  for (const [i, entry] of read.suite.datasets.entries()) {
    const path = datasetPathOf(entry.dataset, read.folder);
    const choice: DatasetChoice =
      path === null ? { kind: entry.dataset === 'sample' ? 'sample' : 'typed-decisions' } : { kind: 'path', path };
    const key = path ?? entry.dataset;
    if (!scans.has(key)) scans.set(key, scanned(choice, cacheDir));
    const scan = await scans.get(key)!;
    if ('why' in scan) {
      // The dataset's problem is said at its first entry; a later entry naming it says so.
      const first = read.suite.datasets.findIndex((d) => (datasetPathOf(d.dataset, read.folder) ?? d.dataset) === key);
      at(
        ['datasets', i, 'dataset'],
        first === i ? scan.why : `the dataset of ${fieldName(['datasets', first, 'dataset'])}, which cannot be read`,
      );
    } else if (entry.workflow !== null && !scan.workflows.includes(entry.workflow))
      at(
        ['datasets', i, 'workflow'],
        `${entry.workflow} is not in the dataset (workflows: ${scan.workflows.join(', ')})`,
      );
  }
  if (problems.length > 0) throw new InvalidInputError(problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
}

/** The dataset's workflows, or why it cannot be read (its own problems at their lines). */
async function scanned(
  choice: DatasetChoice,
  cacheDir: string | undefined,
): Promise<{ workflows: string[] } | { why: string }> {
  try {
    const { entries } = await scanBenchDataset(datasetSourceOf(choice, cacheDir));
    return { workflows: [...new Set(entries.map((c) => c.workflow))] };
  } catch (err) {
    if (!(err instanceof DecidekitError)) throw err;
    if (err instanceof InvalidInputError && err.problems.length > 0) {
      const more = err.problems.length + err.omitted - 1;
      return {
        why: `not a dataset: ${formatProblem(err.problems[0]!)}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`,
      };
    }
    // bench's hint names its option; a suite gives the downloaded file's path in `dataset`.
    return {
      why: spellForLibrary(err.words).replace(
        `pass \`${DATASET_FILE_FLAG}\` in the folder that holds it`,
        "give that file's path in dataset",
      ),
    };
  }
}
