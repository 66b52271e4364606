import type { AuditHead } from '../../store/audit/audit-store.js';
import { createPalette, fitColumns, plural, renderTextTable, singleLine, wrapText, type Align } from '../format.js';
import { RUNS_LIST_WIDTH } from '../runs/runs-list.js';

/**
 * `runs list`: the stored audits, newest first, under their own header (they have no
 * accuracy), cut to the width as the runs above are (the id starts with the UTC date and time).
 */
export function renderAuditRunsList(
  heads: readonly AuditHead[],
  options: {
    readonly colour: boolean;
    readonly width?: number;
    /** How many audits the store holds, when more than those given (`--limit`). */
    readonly total?: number;
  },
): string {
  if (heads.length === 0) return '';
  const p = createPalette(options.colour);
  const rows = heads.map((h) => [
    h.id,
    singleLine(h.judgeModel ?? 'server default'),
    h.judgeEndpoint.scheme === 'embedded' ? 'built-in' : `${h.judgeEndpoint.host}:${h.judgeEndpoint.port}`,
    h.set,
    h.status,
    `${h.finished}/${h.planned}`,
    h.counts === null ? 'n/a' : String(h.counts.disagrees),
    h.counts === null ? 'n/a' : String(h.counts.abstained + h.counts.unavailable),
    h.label === null ? '' : singleLine(h.label),
  ]);
  const header = ['audit', 'judge', 'endpoint', 'set', 'status', 'judged', 'disagree', 'no verdict', 'label'];
  const align: Align[] = ['left', 'left', 'left', 'left', 'left', 'right', 'right', 'right', 'left'];
  const fitted = fitColumns(header, rows, {
    width: options.width ?? RUNS_LIST_WIDTH,
    gapWidth: 2,
    // The label gives way first, then judge and endpoint; when even the minimums do not fit,
    // the endpoint goes, then the set (the audit's report names both), then the label.
    flexible: new Map([
      [8, 6],
      [1, 8],
      [2, 10],
    ]),
    droppable: [8, 3, 2],
  });
  const lines = renderTextTable(fitted.header, fitted.rows, {
    align: fitted.columns.map((c) => align[c]!),
    styleHeader: p.bold,
  });
  const width = options.width ?? RUNS_LIST_WIDTH;
  const total = options.total ?? heads.length;
  const cut = total > heads.length ? [`The ${heads.length} newest of ${plural(total, 'audit')}.`] : [];
  const title = wrapText('Audits (answer audits by a judge; never scored)', width).map((l) => p.bold(l));
  return `${[...title, ...lines, ...cut.flatMap((n) => wrapText(n, width)).map((l) => p.dim(l))].join('\n')}\n`;
}
