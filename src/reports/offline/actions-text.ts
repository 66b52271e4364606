/** `actions` for people: per-model table, both rankings, costliest confusions. Pure. */
import { NOT_AVAILABLE, createPalette, formatNumber, plural, singleLine } from '../format.js';
import { renderFittedTable, renderRowsWrappingLast, wrapStyled } from '../text-fit.js';
import type { ActionsReport } from './actions-json.js';

export interface ActionsTextOptions {
  /** ANSI colour (only for a TTY without NO_COLOR). Default false. */
  readonly colour?: boolean;
  /** Confusions listed per model. Default 3. */
  readonly topConfusions?: number;
  /** The terminal's columns: the lines fit them. Default none (a file or pipe: lines whole). */
  readonly width?: number;
}

const percent = (x: number | null) => (x === null ? NOT_AVAILABLE : `${(x * 100).toFixed(1)}%`);
const rank = (x: number | null) => (x === null ? NOT_AVAILABLE : String(x));
/** Costs as the spec writes them: no trailing zeros. */
const cost = (x: number) => String(Number(x.toPrecision(12)));

function ranking(order: readonly (readonly string[])[]): string {
  return order.length === 0
    ? NOT_AVAILABLE
    : order.map((tie) => tie.map((name) => singleLine(name)).join(' = ')).join(' > ');
}

export function renderActionsText(r: ActionsReport, options: ActionsTextOptions = {}): string {
  const paint = createPalette(options.colour ?? false);
  const top = options.topConfusions ?? 3;
  const width = options.width ?? Infinity;
  const fields = [...r.items.schema.keys()];
  const out: string[] = [];
  const say = (text: string, paintLine: (s: string) => string = (s) => s) =>
    out.push(...wrapStyled(text, width).map(paintLine));
  say(`decidekit actions: ${plural(r.comparison.models.length, 'model')}, ${r.items.items.length} items`, paint.bold);
  const set = [...r.thresholds].map(([f, p]) => `${f} >= ${p}`);
  out.push(
    ...renderRowsWrappingLast(
      [
        ['dataset', `${singleLine(r.datasetPath)} (fields ${singleLine(fields.join(', '))})`],
        [
          'spec',
          `${singleLine(r.specPath)} (actions ${singleLine(r.spec.actions.join(', '))}; inaction ${singleLine(r.spec.inaction ?? NOT_AVAILABLE)})`,
        ],
        ['thresholds', `yes iff p >= 0.5${set.length === 0 ? '' : `, except ${set.join(', ')}`}`],
      ],
      width,
      { indent: '  ', align: ['left', 'left'] },
    ),
  );
  out.push('');

  const header = [
    'model',
    'field acc',
    'field rank',
    'action acc',
    'cost/item',
    'action rank',
    'false-inaction',
    'items',
    'incomplete',
  ];
  const rows = r.comparison.models.map((m) => {
    const e = m.evaluation;
    return [
      singleLine(m.model),
      formatNumber(e.fieldAccuracy),
      rank(m.fieldRank),
      formatNumber(e.actionAccuracy),
      formatNumber(e.meanCostPerItem),
      rank(m.actionRank),
      percent(e.falseInactionRate),
      String(e.items),
      String(e.incompleteItems),
    ];
  });
  out.push(...renderFittedTable(header, rows, width, { styleHeader: paint.bold }));
  out.push('');
  say(`Ranked by field accuracy: ${ranking(r.comparison.byFieldAccuracy)}`);
  say(`Ranked by action cost:    ${ranking(r.comparison.byActionCost)}`);
  out.push('');

  say('Costliest confusions (gold -> pred)', paint.bold);
  const confusions: string[][] = [];
  for (const m of r.comparison.models) {
    const cs = m.evaluation.confusions;
    const shown = cs
      .slice(0, top)
      .map(
        (c) =>
          `${singleLine(c.gold)} -> ${singleLine(c.pred)} x${c.count} (cost ${cost(c.unitCost)} each, ${cost(c.totalCost)} total)`,
      );
    const more = cs.length > top ? `; ${cs.length - top} more` : '';
    confusions.push([singleLine(m.model), shown.length === 0 ? 'none' : shown.join('; ') + more]);
  }
  out.push(...renderRowsWrappingLast(confusions, width, { align: ['left', 'left'], indent: '  ' }));
  const notes: string[] = [];
  for (const m of r.comparison.models) {
    const e = m.evaluation;
    if (e.incompleteItems > 0)
      notes.push(`${singleLine(m.model)}: ${plural(e.incompleteItems, 'item')} answered only partly (excluded)`);
    if (e.unansweredItems > 0)
      notes.push(`${singleLine(m.model)}: ${plural(e.unansweredItems, 'item')} not answered at all (excluded)`);
  }
  out.push('');
  say(
    'field acc: yes/no and choice fields of the complete items; cost/item: mean action error cost from the spec (0 when right)',
    paint.dim,
  );
  say(
    `false-inaction: of items whose right action is not ${singleLine(r.spec.inaction ?? 'the inaction')}, the share predicted as ${singleLine(r.spec.inaction ?? 'it')}`,
    paint.dim,
  );
  if (notes.length > 0) {
    out.push('');
    for (const n of notes) say(n);
  }
  return `${out.join('\n')}\n`;
}
