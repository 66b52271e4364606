/**
 * Loads rows of the decision export schema into DuckDB (from the JSONL export, as a user
 * would) and into PostgreSQL, with column types from DECISION_COLUMNS, and reads the scoring
 * query's result back as plain numbers.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type pg from 'pg';
import { DECISION_COLUMNS, type DecisionRow } from '../../src/core/export/decision-row.js';
import { sqlString } from '../../src/core/sql-text.js';
import {
  decisionColumnType,
  parseTableName,
  renderCreateTableSql,
  SCORING_SQL_RESULT_COLUMNS,
  type SqlDialect,
} from '../../src/core/export/scoring-sql.js';

/** The table's CREATE TABLE, as `decidekit sql --create` prints it. */
export function decisionTableDdl(dialect: SqlDialect, table: string): string {
  return renderCreateTableSql({ dialect, table: parseTableName(table) });
}

/** Creates `table` and fills it from a JSONL export file through DuckDB's read_json. */
export async function loadDuckDb(connection: DuckDBConnection, table: string, jsonlPath: string): Promise<void> {
  await connection.run(decisionTableDdl('duckdb', table));
  const columns = DECISION_COLUMNS.map((c) => `${c.name}: '${decisionColumnType('duckdb', c.type)}'`).join(', ');
  await connection.run(
    `INSERT INTO ${table} SELECT * FROM read_json(${sqlString(jsonlPath)}, format = 'newline_delimited', columns = {${columns}})`,
  );
}

export async function loadPostgres(client: pg.Client, table: string, rows: readonly DecisionRow[]): Promise<void> {
  await client.query(decisionTableDdl('postgres', table));
  const names = DECISION_COLUMNS.map((c) => c.name);
  for (let start = 0; start < rows.length; start += 500) {
    const chunk = rows.slice(start, start + 500);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      const marks = names.map((name) => {
        values.push(row[name]);
        return `$${values.length}`;
      });
      return `(${marks.join(', ')})`;
    });
    await client.query(`INSERT INTO ${table} (${names.join(', ')}) VALUES ${tuples.join(', ')}`, values);
  }
}

/** One result row with counts as numbers (drivers return BIGINT as bigint or string). */
export type ScoringRow = Record<(typeof SCORING_SQL_RESULT_COLUMNS)[number], string | number | null>;

export function normalizeScoringRows(rows: readonly Record<string, unknown>[]): ScoringRow[] {
  return rows.map((row) => {
    const out: Record<string, string | number | null> = {};
    for (const name of SCORING_SQL_RESULT_COLUMNS) {
      const v = row[name];
      out[name] =
        v === null || v === undefined
          ? null
          : name === 'scope' || name === 'model'
            ? String(v)
            : typeof v === 'number'
              ? v
              : Number(v);
    }
    return out as ScoringRow;
  });
}

export async function queryDuckDb(connection: DuckDBConnection, sql: string): Promise<ScoringRow[]> {
  const reader = await connection.runAndReadAll(sql);
  return normalizeScoringRows(reader.getRowObjectsJS() as Record<string, unknown>[]);
}

export async function queryPostgres(client: pg.Client, sql: string): Promise<ScoringRow[]> {
  return normalizeScoringRows((await client.query(sql)).rows as Record<string, unknown>[]);
}
