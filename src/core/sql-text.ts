/** SQL text pieces shared by the query builders (`runs export --sql`, `score --engine duckdb`). */

/** A quoted SQL identifier: its case is kept and a `"` inside is doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A SQL string literal: a `'` inside is doubled. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
