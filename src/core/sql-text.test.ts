import { describe, expect, it } from 'vitest';
import { quoteIdentifier, sqlString } from './sql-text.js';

describe('SQL text', () => {
  it('quotes an identifier, doubling a double quote inside', () => {
    expect(quoteIdentifier('decisions')).toBe('"decisions"');
    expect(quoteIdentifier('we"ird')).toBe('"we""ird"');
  });

  it('writes a string literal, doubling a single quote inside', () => {
    expect(sqlString("/tmp/o'neil.jsonl")).toBe("'/tmp/o''neil.jsonl'");
  });
});
