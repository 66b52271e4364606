import { describe, expect, it } from 'vitest';
import { DECISION_COLUMNS } from './decision-row.js';
import { parseTableName, renderScoringSql, SCORING_SQL_COLUMNS } from './scoring-sql.js';

describe('parseTableName', () => {
  it('accepts a name and a schema-qualified name', () => {
    expect(parseTableName('decisions').parts).toEqual(['decisions']);
    expect(parseTableName('Logs.Decisions_2026').parts).toEqual(['Logs', 'Decisions_2026']);
    expect(parseTableName('c.s.t').parts).toEqual(['c', 's', 't']);
  });

  it.each(['', 'a..b', '1abc', 'a b', 'a;drop table x', 'x"y', 'a.b.c.d', 'x'.repeat(64)])(
    'rejects %j with a usage error',
    (text) => {
      expect(() => parseTableName(text)).toThrowError(expect.objectContaining({ code: 'invalid_option' }));
    },
  );
});

describe('renderScoringSql', () => {
  it('quotes every part of the table name', () => {
    expect(renderScoringSql({ dialect: 'duckdb', table: parseTableName('Logs.decisions') })).toContain(
      'FROM "Logs"."decisions"',
    );
  });

  it('reads the default table decisions', () => {
    expect(renderScoringSql({ dialect: 'postgres' })).toContain('FROM "decisions"');
  });

  it('differs between dialects only in type names', () => {
    const duck = renderScoringSql({ dialect: 'duckdb' });
    const postgres = renderScoringSql({ dialect: 'postgres' });
    expect(postgres.replaceAll('DOUBLE PRECISION', 'DOUBLE').replaceAll('TEXT', 'VARCHAR')).toBe(
      duck.replace(', duckdb)', ', postgres)'),
    );
  });

  it('reads only columns of the decision export schema', () => {
    const names = new Set<string>(DECISION_COLUMNS.map((c) => c.name));
    for (const c of SCORING_SQL_COLUMNS) expect(names.has(c), c).toBe(true);
  });
});
