/**
 * `decidekit/reports`: the renderers. Each takes a result and returns a string (terminal
 * text, Markdown, JSON, a single-file HTML page); none writes anything. Also the
 * per-decision export table that `runs export` writes.
 */
export { renderBenchTerminal, type BenchTerminalOptions } from '../reports/bench/bench-terminal.js';
export { renderBenchMarkdown, type BenchMarkdownOptions } from '../reports/bench/bench-markdown.js';
export { renderBenchJson } from '../reports/bench/bench-json.js';
export { renderBenchHtml, type BenchHtmlOptions } from '../reports/bench/bench-html.js';
export { renderRunsCompareHtml } from '../reports/runs/runs-compare-html.js';
export { renderCompareMarkdown, renderScoreText } from '../reports/offline/score-text.js';
export { renderTuneText } from '../reports/offline/tuning-text.js';
export { renderActionsText } from '../reports/offline/actions-text.js';
export {
  renderActionsHtml,
  renderCompareHtml,
  renderScoreHtml,
  renderTuneHtml,
} from '../reports/offline/offline-html.js';
export { renderAuditJson } from '../reports/audit/audit-json.js';
export { renderAuditMarkdown } from '../reports/audit/audit-markdown.js';
export { renderProbeJson } from '../reports/probe/probe-json.js';
export { renderProbeMarkdown } from '../reports/probe/probe-markdown.js';
export {
  DECISION_COLUMNS,
  DECISION_SCHEMA_VERSION,
  decisionRowsOfRun,
  type DecisionColumn,
  type DecisionColumnType,
  type DecisionRow,
} from '../core/export/decision-row.js';
