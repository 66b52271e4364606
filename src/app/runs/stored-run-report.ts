/**
 * `runs report` and `report`: a stored run's report re-rendered, its cases read once. Each
 * format's renderers (and the dataset reader of the Markdown trace's previews, the
 * calibration map's reader) are loaded only when that format or option is asked for.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { given } from '../../core/given.js';
import type { ReportedRun } from '../../core/bench/run.js';
import { OptionError } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import type { AskedBy } from '../../store/record-kind.js';
import { analysisReadsCases, analyzeRun } from '../bench/run-analysis.js';
import type { ConventionChoice } from '../../core/stats/conventions.js';
import { calibrateRunCommand } from '../../core/command-hints.js';
import type { RunCalibration } from '../../core/calibration-map.js';
import type { RunQuestion } from '../../core/case-recalibration.js';
import { openStoredRun } from './open-stored-run.js';

/** How `storedRunReport` renders: the format, the conventions and what the terminal summary needs. */
export interface StoredReportOptions {
  readonly format: 'terminal' | 'markdown' | 'json' | 'html';
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly askedBy: AskedBy;
  readonly choice: ConventionChoice;
  readonly intervals: boolean;
  readonly redactHost: boolean;
  /** The terminal summary's colour and width. */
  readonly terminal: { readonly colour: boolean; readonly width?: number | undefined };
  /** Called with the run's id once it is found, before the run is read. */
  readonly onRunFound?: (runId: string) => void;
  /**
   * A calibration map (`calibrate RUN --out`) to apply before scoring: every number, interval
   * and section of the report is made from the recalibrated answers (the store is unchanged).
   */
  readonly calibrationPath?: string;
  /** The folder a hint's file names are relative to: a hint names a map file not there yet. */
  readonly cwd?: string;
}

/**
 * A stored run's report as `bench` printed or wrote it, in pieces, its cases read once: the
 * numbers, listings and the per-case parts of the report (`ReportTraces`) are gathered in
 * one pass, and a JSON document that needs nothing from a pass first reads the cases as it
 * is written. The Markdown trace gets its state previews when the run's dataset is still at
 * hand. Call `dispose` once the pieces are written.
 */
export async function storedRunReport(
  storePath: string,
  prefix: string,
  options: StoredReportOptions,
): Promise<{ readonly run: ReportedRun; readonly chunks: Iterable<string>; dispose(): void }> {
  const { format, redactHost } = options;
  const opened = openStoredRun(storePath, prefix, options.askedBy, { listings: format !== 'json' });
  options.onRunFound?.(opened.head.id);
  const recalibration =
    options.calibrationPath === undefined
      ? undefined
      : await recalibrationOfRun(opened.run, options.calibrationPath, options.askedBy.storeArg, options.cwd);
  const states =
    format === 'markdown'
      ? await (await import('./run-case-states.js')).statesOfRun(opened.run, options.env)
      : undefined;
  const analyze = {
    intervals: options.intervals,
    stored: opened.stored,
    listings: format !== 'json',
    ...given({ recalibration }),
  };
  if (format === 'terminal' || (format === 'json' && !analysisReadsCases(opened.run, options.choice, analyze))) {
    const { run, statistics } = analyzeRun(opened.run, options.choice, analyze);
    const chunks =
      format === 'json'
        ? (await import('../../reports/bench/bench-json.js')).renderBenchJsonChunks(run, { statistics, redactHost })
        : [
            (await import('../../reports/bench/bench-terminal.js')).renderBenchTerminal(run, {
              colour: options.terminal.colour,
              redactHost,
              statistics,
              ...given({ width: options.terminal.width }),
            }),
          ];
    return { run, chunks, dispose: () => undefined };
  }
  const { ReportTraces } = await import('../bench/report-traces.js');
  const traces = new ReportTraces([format], states);
  try {
    const { run, statistics } = analyzeRun(opened.run, options.choice, { ...analyze, visit: traces.visit });
    const chunks = traces.chunks(run, format, { redactHost, statistics, states });
    return { run, chunks, dispose: () => traces.dispose() };
  } catch (err) {
    traces.dispose();
    throw err;
  }
}

/**
 * The map a report applies to a stored run, checked against the run before it is read: fitted
 * on a benchmark run, with a group for every question the run answered; a run that applied
 * a map of its own while it ran is reported with that one.
 */
async function recalibrationOfRun(
  run: ReportedRun,
  path: string,
  storeArg: string | null | undefined,
  cwd: string | undefined,
): Promise<RunCalibration> {
  const own = run.config.calibration;
  if (own !== undefined)
    throw new OptionError(
      'calibrationPath',
      words`${option('calibrationPath', 'MAP')}: run ${run.id} was recalibrated as it ran, with ${own.path} (sha256 ${own.sha256.slice(0, 12)}): its report applies that map; report it without ${option('calibrationPath')}`,
    );
  const out = freeMapName(run.id, cwd);
  const fit = (by: string) => [
    `fit one on this run with: ${calibrateRunCommand(run.id, { by, out, store: storeArg })}`,
  ];
  const { loadRunCalibration, refuseUnfitCalibration } = await import('../run-calibration.js');
  const calibration = await loadRunCalibration(path, fit('type'));
  refuseUnfitCalibration(calibration, answeredQuestions(run, calibration.by), `run ${run.id}`, fit(calibration.by));
  return calibration;
}

/**
 * The map file a hint to fit one on run `runId` names: `map-RUNID.json`, or the first
 * `map-RUNID-N.json` that does not exist in `cwd`, so the pasted command never replaces a map
 * the user has (the calibrate command replaces a file that is there).
 */
function freeMapName(runId: string, cwd: string | undefined): string {
  const taken = (name: string) => cwd !== undefined && existsSync(join(cwd, name));
  let name = `map-${runId}.json`;
  for (let n = 2; taken(name); n++) name = `map-${runId}-${n}.json`;
  return name;
}

/** The questions a run answered as its summary counts them: by type, or by question (what a map's groups need). */
function answeredQuestions(run: ReportedRun, by: RunCalibration['by']): RunQuestion[] {
  const s = run.summary;
  if (by === 'type')
    return Object.entries(s.byType).flatMap(([type, g]) => (g.answered > 0 ? [{ key: '', type }] : []));
  return Object.entries(s.byQuestion).flatMap(([key, g]) => (g.answered > 0 ? [{ key, type: '' }] : []));
}
