import type { AuditHead } from '../../store/stored-audit.js';
import { singleLine } from '../format.js';
import { listEndpointCell, renderKindList } from './runs-list.js';

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
  return renderKindList(
    {
      title: 'Audits (answer audits by a judge; never scored)',
      header: ['audit', 'judge', 'endpoint', 'set', 'status', 'judged', 'disagree', 'no verdict', 'label'],
      align: ['left', 'left', 'left', 'left', 'left', 'right', 'right', 'right', 'left'],
      rows: heads.map((h) => [
        h.id,
        singleLine(h.judgeModel ?? 'server default'),
        listEndpointCell(h.judgeEndpoint),
        h.set,
        h.status,
        `${h.finished}/${h.planned}`,
        h.counts === null ? 'n/a' : String(h.counts.disagrees),
        h.noVerdict === null ? 'n/a' : String(h.noVerdict),
        h.label === null ? '' : singleLine(h.label),
      ]),
      // The label gives way first, then judge and endpoint; when even the minimums do not fit,
      // the endpoint goes, then the set (the audit's report names both), then the label.
      flexible: new Map([
        [8, 6],
        [1, 8],
        [2, 10],
      ]),
      droppable: [8, 3, 2],
      noun: 'audit',
    },
    options,
  );
}
