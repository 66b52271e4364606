import type { AuditHead } from '../../store/audit/audit-store.js';
import { createPalette, fitColumns, renderTextTable, singleLine, type Align } from '../format.js';
import { frameKindList, listEndpointCell, RUNS_LIST_WIDTH } from '../runs/runs-list.js';

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
    listEndpointCell(h.judgeEndpoint),
    h.set,
    h.status,
    `${h.finished}/${h.planned}`,
    h.counts === null ? 'n/a' : String(h.counts.disagrees),
    h.noVerdict === null ? 'n/a' : String(h.noVerdict),
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
  return frameKindList(
    p,
    'Audits (answer audits by a judge; never scored)',
    lines,
    { shown: heads.length, total: options.total ?? heads.length, noun: 'audit' },
    options.width ?? RUNS_LIST_WIDTH,
  );
}
