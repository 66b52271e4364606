/**
 * A calibration map for benchmark runs (`bench --calibration MAP`, `report RUN --calibration
 * MAP`): read, hashed and checked before any work, against the questions the run asks. Every
 * problem is invalid input (exit 1 at the command line, as for `score --calibration`), naming
 * the file and what is wrong:
 * the file cannot be read, is not a map or has a bad field, was fitted on offline answers, or
 * lacks a group a question of the run needs.
 */
import { runCalibrationOf, type RunCalibration } from '../core/calibration-map.js';
import { missingRunGroupsText, type RunQuestion } from '../core/case-recalibration.js';
import { DecidekitError, InvalidInputError, formatProblem } from '../core/errors.js';
import { optionMention as option, words, type MessageWords } from '../core/message-words.js';
import { loadCalibrationMap } from '../datasets/calibration-map-file.js';

/** Reads and checks a map fitted on a stored benchmark run; `offlineHint` says how to fit one instead. */
export async function loadRunCalibration(path: string, fitHint: MessageWords): Promise<RunCalibration> {
  let loaded;
  try {
    loaded = await loadCalibrationMap(path);
  } catch (err) {
    if (err instanceof InvalidInputError) {
      const lines = err.problems.map(formatProblem);
      const listed = lines.length === 1 ? lines[0]! : `${path} has ${lines.length} problems:\n  ${lines.join('\n  ')}`;
      throw new DecidekitError('calibration_map', words`${option('calibrationPath', 'MAP')}: ${listed}`);
    }
    if (err instanceof DecidekitError)
      throw new DecidekitError('calibration_map', words`${option('calibrationPath', 'MAP')}: ${err}`);
    throw err;
  }
  if (loaded.map.source !== 'bench')
    throw new DecidekitError(
      'calibration_map',
      words`${option('calibrationPath', 'MAP')}: calibration map ${path} was fitted on offline answers (its groups are offline question kinds or prompts): a benchmark run applies a map fitted on a stored benchmark run; ${fitHint}`,
    );
  return runCalibrationOf({ path, sha256: loaded.sha256, method: loaded.map.method, by: loaded.map.by }, loaded.map);
}

/** Refuses a map lacking a group that one of `questions` needs, naming the groups missing and `what` the questions are of. */
export function refuseUnfitCalibration(
  calibration: RunCalibration,
  questions: readonly RunQuestion[],
  what: string,
  fitHint: MessageWords,
): void {
  const missing = missingRunGroupsText(calibration, questions);
  if (missing === null) return;
  throw new DecidekitError(
    'calibration_map',
    words`${option('calibrationPath', 'MAP')}: calibration map ${calibration.path} does not fit ${what}: ${missing}; ${fitHint}`,
  );
}
