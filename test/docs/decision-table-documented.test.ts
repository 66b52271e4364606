import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DECISION_COLUMNS, DECISION_SCHEMA_VERSION } from '../../src/core/export/decision-row.js';

describe('the decision table in docs/file-formats.md', () => {
  it('lists exactly the schema columns, in order, with their types and nullability', () => {
    const text = readFileSync(new URL('../../docs/file-formats.md', import.meta.url), 'utf8');
    const start = text.indexOf(`## Decision table (run export schema, version ${DECISION_SCHEMA_VERSION})`);
    expect(start).toBeGreaterThan(0);
    const end = text.indexOf('\n## ', start + 1);
    const rows = text
      .slice(start, end === -1 ? undefined : end)
      .split('\n')
      .filter((l) => /^\| `[a-z_]+` \|/.test(l))
      .map((l) => l.split('|').map((cell) => cell.trim()))
      .map(([, name, type, nullable]) => [name!.replace(/`/g, ''), type, nullable]);
    expect(rows).toEqual(DECISION_COLUMNS.map((c) => [c.name, c.type, c.nullable ? 'yes' : 'no']));
  });
});
