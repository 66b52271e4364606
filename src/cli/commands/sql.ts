import {
  DEFAULT_DECISION_TABLE,
  parseTableName,
  renderScoringSql,
  SQL_DIALECTS,
} from '../../core/export/scoring-sql.js';
import { defineCommand, oneOf, text } from '../define-command.js';

export const command = defineCommand({
  name: 'sql',
  summary: 'print the scoring as one SQL query over an exported decision table',
  usage: 'sql --dialect duckdb|postgres [--table NAME]',
  description: `Prints one SQL query that computes, per model and overall, accuracy, Brier, log loss,
ECE with its reliability bins, score MAE, cost per correct decision and mean latency from a
table in the decision export schema (\`runs export\`), with the definitions of docs/scoring.md.
Run it where your decision logs live. Tested on DuckDB and PostgreSQL.

Result: one row per scope (overall, then each model) with bin NULL carrying every metric,
followed by one row per non-empty reliability bin (0-9) of that scope.`,
  options: {
    dialect: oneOf('DIALECT', SQL_DIALECTS, 'SQL dialect: duckdb or postgres', {
      required: `--dialect is required: ${SQL_DIALECTS.join(' or ')}`,
    }),
    table: text('NAME', 'the decision table: NAME or SCHEMA.NAME (quoted, so case matters)', {
      default: DEFAULT_DECISION_TABLE,
    }),
  },
  examples: [
    'decidekit sql --dialect duckdb > scoring.sql',
    'duckdb -c "CREATE VIEW decisions AS SELECT * FROM \'run.parquet\'" -c "$(decidekit sql --dialect duckdb)"',
    'psql -f <(decidekit sql --dialect postgres --table analytics.decisions)',
  ],
  async run({ values }, io) {
    io.stdout.write(renderScoringSql({ dialect: values.dialect, table: parseTableName(values.table) }));
    return 0;
  },
});
