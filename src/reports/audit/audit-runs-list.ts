import type { AuditHead } from '../../store/audit/audit-store.js';
import { createPalette, renderTextTable, singleLine, truncate } from '../format.js';
import { describeCreatedAt } from '../runs/runs-list.js';

/** `runs list`: the stored audits, newest first, under their own header (they have no accuracy). */
export function renderAuditRunsList(heads: readonly AuditHead[], options: { readonly colour: boolean }): string {
  if (heads.length === 0) return '';
  const p = createPalette(options.colour);
  const rows = heads.map((h) => [
    h.id,
    describeCreatedAt(h.createdAt),
    truncate(singleLine(h.judgeModel ?? 'server default'), 24),
    h.judgeEndpoint.scheme === 'embedded' ? 'built-in' : `${h.judgeEndpoint.host}:${h.judgeEndpoint.port}`,
    h.set,
    h.status,
    `${h.finished}/${h.planned}`,
    h.counts === null ? 'n/a' : String(h.counts.disagrees),
    h.counts === null ? 'n/a' : String(h.counts.abstained + h.counts.unavailable),
    h.label === null ? '' : truncate(singleLine(h.label), 30),
  ]);
  const lines = renderTextTable(
    ['audit', 'created', 'judge', 'endpoint', 'set', 'status', 'judged', 'disagree', 'no verdict', 'label'],
    rows,
    { align: ['left', 'left', 'left', 'left', 'left', 'left', 'right', 'right', 'right', 'left'], styleHeader: p.bold },
  );
  return `${[p.bold('Audits (answer audits by a judge; never scored)'), ...lines].join('\n')}\n`;
}
