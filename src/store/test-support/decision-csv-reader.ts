/**
 * Reads the store's CSV text of a run's decisions (`StoreCases.decisionCsv`) back into values,
 * written here from the format's description in `decision-csv.ts`, independent of the writers.
 */
import { CSV_QUOTE, DECISION_CSV_COLUMNS } from '../decision-csv.js';

export type DecisionCsvValue = string | number | null;

/** The lines' fields, a real column's three fields as its one value. */
export function readDecisionCsv(text: string): DecisionCsvValue[][] {
  const lines: DecisionCsvValue[][] = [];
  let i = 0;
  while (i < text.length) {
    const fields: (string | null)[] = [];
    for (;;) {
      let field: string | null = null;
      if (text[i] === CSV_QUOTE) {
        field = '';
        i++;
        for (;;) {
          const q = text.indexOf(CSV_QUOTE, i);
          if (q === -1) throw new Error('unterminated text');
          field += text.slice(i, q);
          i = q + 1;
          if (text[i] !== CSV_QUOTE) break;
          field += CSV_QUOTE;
          i++;
        }
      } else {
        let end = i;
        while (text[end] !== ',' && text[end] !== '\n') end++;
        if (end > i) field = text.slice(i, end);
        i = end;
      }
      fields.push(field);
      if (text[i++] === '\n') break;
    }
    lines.push(valuesOf(fields));
  }
  return lines;
}

function valuesOf(fields: readonly (string | null)[]): DecisionCsvValue[] {
  const values: DecisionCsvValue[] = [];
  let k = 0;
  for (const column of DECISION_CSV_COLUMNS) {
    if (column.kind === 'text') values.push(fields[k++]!);
    else if (column.kind === 'integer') values.push(numberOf(fields[k++]!));
    else {
      const [m, e] = [fields[k], fields[k + 1]];
      k += 2;
      if (m == null) values.push(null);
      else {
        const exponent = Number(e);
        const half = Math.trunc(exponent / 2);
        values.push(Number(m) * 2 ** -half * 2 ** -(exponent - half));
      }
    }
  }
  if (k !== fields.length) throw new Error(`a line of ${fields.length} fields, not ${k}`);
  return values;
}

const numberOf = (field: string | null): number | null => (field === null ? null : Number(field));
