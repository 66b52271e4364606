import { outputPathOption } from '../shared-options.js';
import { given } from '../../core/given.js';
import { outFileOf } from '../out-file.js';
import { defineCommand, flag, list, text } from '../define-command.js';
import { colourEnabled } from '../io.js';
import { filesReadBy, refuseWrongFilesOf } from '../wrong-file.js';
import { composeActions } from '../../app/offline/compose-actions.js';
import { renderActionsJson } from '../../reports/offline/actions-json.js';
import { renderActionsText } from '../../reports/offline/actions-text.js';
import { renderActionsHtml } from '../../reports/offline/offline-html.js';
import { writeHtmlReport } from '../write-html.js';

export const command = defineCommand({
  name: 'actions',
  summary: 'compose field decisions into actions and price the errors',
  usage: [
    'actions --dataset FILE --spec FILE --results FILE [FILE ...]',
    '        [--threshold FIELD=P ...] [--json] [--html FILE]',
  ],
  description: `Scores saved field decisions as the actions they compose into (never calls a model).
Cases sharing a "group" are one item; each case is one field (its "field", else the part of
its id after the last ':'). The spec (JSON) lists the actions, the inaction, ordered rules
(first match wins; the last has no "when") and the cost of each gold->pred error ("*"
matches any action; a key that is absent costs default_error, default 1).

Per model: field accuracy and rank, action accuracy, mean cost per item and rank by cost,
false-inaction rate, costliest confusions, items and incomplete items (answered only
partly: excluded). Both rankings are printed.`,
  options: {
    dataset: text('FILE', 'dataset JSONL or Parquet with grouped cases', { required: true }),
    spec: text('FILE', 'action spec JSON', { required: true }),
    results: list('FILE', 'one or more results files (JSONL or Parquet), one model each', { required: true }),
    threshold: list('FIELD=P', 'yes iff P(yes) >= P for that yes_no field (default 0.5); repeatable', {
      example: 'urgent=0.5',
    }),
    json: flag('one JSON document, unrounded numbers'),
    html: outputPathOption(
      text(
        'FILE',
        'also write an HTML report (gold -> predicted action matrices) to FILE (into a folder: actions.html)',
      ),
      'file',
    ),
  },
  examples: [
    'decidekit actions --dataset data/inbox/dataset.jsonl \\\n' +
      '    --spec data/inbox/spec.json \\\n' +
      '    --results data/inbox/results-fieldsharp-1.jsonl \\\n' +
      '              data/inbox/results-actionwise-1.jsonl',
  ],
  async run({ values }, io) {
    await refuseWrongFilesOf('actions', values, io.cwd);
    const htmlFile = await outFileOf('htmlPath', values.html, io.cwd, 'actions.html', filesReadBy('actions', values));
    const report = await composeActions({
      datasetPath: values.dataset,
      specPath: values.spec,
      resultsPaths: values.results,
      thresholds: values.threshold,
    });
    if (values.json) {
      io.stdout.write(renderActionsJson(report));
    } else {
      io.stdout.write(
        renderActionsText(report, { colour: colourEnabled(io.stdout, io.env), ...given({ width: io.stdout.columns }) }),
      );
    }
    if (htmlFile !== undefined) {
      await writeHtmlReport(io, htmlFile, renderActionsHtml(report));
    }
    return 0;
  },
});
