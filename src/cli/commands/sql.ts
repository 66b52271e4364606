import {
  DEFAULT_DECISION_TABLE,
  parseTableName,
  renderCreateTableSql,
  renderScoringSql,
  SQL_DIALECTS,
} from '../../core/export/scoring-sql.js';
import { defineCommand, flag, oneOf, text } from '../define-command.js';

export const command = defineCommand({
  name: 'sql',
  summary: 'print the scoring as one SQL query over an exported decision table',
  usage: 'sql --dialect duckdb|postgres [--table NAME] [--create]',
  description: `Prints one SQL query that computes, per model and overall, accuracy, Brier, log loss,
ECE with its reliability bins, score MAE, cost per correct decision and mean latency from a
table in the decision export schema (\`runs export\`), with the definitions of docs/scoring.md.
Run it where your decision logs live. Tested on DuckDB and PostgreSQL.

Result: one row per scope (overall, then each model) with bin NULL carrying every metric,
followed by one row per non-empty reliability bin (0-9) of that scope.

With --create it prints instead the CREATE TABLE of the decision export schema (every column
of a runs export, in order, with its type), so a CSV export loads into it as it is: create the
table, load the CSV, then run the query (see the PostgreSQL example). A CSV text cell that
starts with = + - @ keeps the leading ' of the spreadsheet guard (docs/file-formats.md);
load the JSONL or Parquet export where such text must stay exact.`,
  options: {
    dialect: oneOf('DIALECT', SQL_DIALECTS, 'SQL dialect: duckdb or postgres', {
      required: `--dialect is required: ${SQL_DIALECTS.join(' or ')}`,
    }),
    table: text('NAME', 'the table: NAME, SCHEMA.NAME or CATALOG.SCHEMA.NAME (case kept)', {
      default: DEFAULT_DECISION_TABLE,
    }),
    create: flag('print the CREATE TABLE of the decision table instead of the query'),
  },
  examples: [
    'decidekit sql --dialect duckdb > scoring.sql',
    'duckdb -c "CREATE VIEW decisions AS SELECT * FROM \'run.parquet\'" \\\n' +
      '       -c "$(decidekit sql --dialect duckdb)"',
    'psql -f <(decidekit sql --dialect postgres --table analytics.decisions)',
    'decidekit runs export RUN --format csv --out run.csv\n' +
      'psql -c "$(decidekit sql --dialect postgres --create)" \\\n' +
      '     -c "\\copy decisions FROM \'run.csv\' CSV HEADER" \\\n' +
      '     -c "$(decidekit sql --dialect postgres)"',
  ],
  async run({ values }, io) {
    const options = { dialect: values.dialect, table: parseTableName(values.table) };
    io.stdout.write(values.create ? renderCreateTableSql(options) : renderScoringSql(options));
    return 0;
  },
});
