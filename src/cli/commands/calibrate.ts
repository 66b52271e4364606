import { given } from '../../core/given.js';
import { UsageError } from '../../core/errors.js';
import { calibrateStoredRun } from '../../app/calibrate/calibrate-run.js';
import { storePathOf } from '../locations.js';
import { storeOption, outputPathOption } from '../shared-options.js';
import { CALIBRATION_GROUPINGS, CALIBRATION_METHODS } from '../../core/calibration-map.js';
import { renderCalibrationMapJson } from '../../core/calibration-map-file.js';
import { DEFAULT_FOLDS } from '../../core/calibrate/cross-validate.js';
import type { CalibrationRun } from '../../core/calibrate/cross-validate.js';
import { withConventions } from '../../core/stats/conventions.js';
import { calibrateOffline } from '../../app/calibrate/calibrate-offline.js';
import { writeTextFile } from '../../app/write-text-file.js';
import { renderCalibrateHtml } from '../../reports/calibrate/calibrate-html.js';
import { writeHtmlReport } from '../write-html.js';
import { renderCalibrateJson } from '../../reports/calibrate/calibrate-json.js';
import { renderCalibrateText } from '../../reports/calibrate/calibrate-text.js';
import { defineCommand, flag, integer, oneOf, text } from '../define-command.js';
import { colourEnabled, type CliIo } from '../io.js';
import { outFileOf, storeRead } from '../out-file.js';
import { seedOption } from '../statistics-options.js';
import { filesReadBy, refuseWrongFilesOf } from '../wrong-file.js';

export const command = defineCommand({
  name: 'calibrate',
  summary: 'fit a calibration map to saved answers, checked on held-out folds',
  usage: [
    'calibrate --dataset FILE --results FILE [--method M] [--by G] [--folds K] [--seed S] [--out MAP.json] [--html FILE] [--json]',
    'calibrate RUN [--store S] [--method M] [--by G] [--folds K] [--seed S] [--out MAP.json] [--html FILE] [--json]',
  ],
  description: `Fits a calibration of one model's probabilities to the known answers, and checks it honestly:
the decisions are dealt into K folds by case (seeded, stratified by answer), each fold is
recalibrated with the fit on the others, and held-out accuracy, Brier, log loss and ECE are
shown before and after, with 95% intervals and a paired verdict, and the ECE noise floor.
Never calls a model. With RUN, a stored benchmark run's answers are fitted against its soft
gold (cross-entropy; held-out KL is reported too).

Methods: temperature (softmax(log p / T); never changes the most likely answer), platt
(yes/no: sigmoid(a · logit p + b)), isotonic (pool adjacent violators) and histogram
(ten bins). A group with too few decisions, or whose fit hits a search bound or sees
separable data, is named and left unchanged. --out writes the map (fitted on all the data);
score and compare apply it with --calibration MAP. Formats: docs/calibrate.md.`,
  options: {
    dataset: text('FILE', 'dataset JSONL or Parquet (offline answers)'),
    results: text('FILE', "one model's results, JSONL or Parquet (offline answers)"),
    store: storeOption,
    method: oneOf('M', CALIBRATION_METHODS, 'temperature | platt | isotonic | histogram', { default: 'temperature' }),
    by: oneOf('G', CALIBRATION_GROUPINGS, 'one fit for all decisions, one per question type, or one per question', {
      default: 'all',
    }),
    folds: integer('K', 'folds of the held-out check, an integer >= 2 (fewer when there are fewer cases)', {
      min: 2,
      max: 1000,
      defaultText: String(DEFAULT_FOLDS),
    }),
    seed: seedOption('seed of the folds, the bootstrap intervals and the ECE noise floor'),
    out: outputPathOption(
      text('MAP', 'write the calibration map (JSON) to MAP (into a folder: calibration-map.json)', {
        example: 'map.json',
      }),
      'file',
    ),
    json: flag('one JSON document, unrounded numbers'),
    html: outputPathOption(
      text(
        'FILE',
        'also write an HTML page (reliability before and after, per group) to FILE (into a folder: calibrate.html)',
      ),
      'file',
    ),
  },
  examples: [
    'decidekit calibrate --dataset data/moderation/dataset.jsonl \\\n' +
      '                    --results data/moderation/results-loud-1.jsonl \\\n' +
      '                    --out map.json',
    'decidekit calibrate 20261130-0415 --by type',
  ],
  positionals: { min: 0, max: 1, names: 'RUN' },
  async run({ values: v, positionals: [prefix] }, io) {
    const common = {
      method: v.method,
      by: v.by,
      ...given({ folds: v.folds }),
      conventions: withConventions(given({ seed: v.seed })),
    };
    if (prefix !== undefined) {
      if (v.dataset !== undefined || v.results !== undefined)
        throw new UsageError('calibrate takes a stored RUN or --dataset and --results, not both');
      const storePath = storePathOf(v.store, io);
      const outFile = await outFileOf('mapPath', v.out, io.cwd, 'calibration-map.json', [storeRead(storePath)]);
      const htmlFile = await outFileOf('htmlPath', v.html, io.cwd, 'calibrate.html', [storeRead(storePath)]);
      const run = calibrateStoredRun({
        storePath,
        run: prefix,
        askedBy: { command: 'calibrate', storeArg: v.store },
        ...common,
      });
      return finish(run, v, io, { outFile, htmlFile });
    }
    if (v.dataset === undefined || v.results === undefined)
      throw new UsageError('calibrate needs a stored RUN, or --dataset FILE and --results FILE (offline answers)');
    if (v.store !== undefined) throw new UsageError('--store goes with a stored RUN, not with --dataset and --results');
    await refuseWrongFilesOf('calibrate', v, io.cwd);
    const outFile = await outFileOf('mapPath', v.out, io.cwd, 'calibration-map.json', filesReadBy('calibrate', v));
    const htmlFile = await outFileOf('htmlPath', v.html, io.cwd, 'calibrate.html', filesReadBy('calibrate', v));
    const run = await calibrateOffline({
      datasetPath: v.dataset,
      resultsPath: v.results,
      ...common,
    });
    return finish(run, v, io, { outFile, htmlFile });
  },
});

async function finish(
  run: CalibrationRun,
  v: { readonly json: boolean },
  io: CliIo,
  { outFile, htmlFile }: { readonly outFile: string | undefined; readonly htmlFile: string | undefined },
): Promise<number> {
  if (htmlFile !== undefined) await writeHtmlReport(io, htmlFile, renderCalibrateHtml(run));
  if (outFile !== undefined) {
    await writeTextFile(outFile, renderCalibrationMapJson(run.map), 'the calibration map');
    io.stderr.write(`calibration map written to ${outFile}\n`);
  }
  if (v.json) io.stdout.write(renderCalibrateJson(run, given({ mapPath: outFile })));
  else
    io.stdout.write(
      renderCalibrateText(run, { colour: colourEnabled(io.stdout, io.env), ...given({ width: io.stdout.columns }) }),
    );
  return 0;
}
