/**
 * The SQLite store's CSV text of a run carries every stored double exactly: a score written
 * straight into a real store file reads back from the text as the double the flat read gives,
 * at any magnitude (the usual range's integer form, the others' own exponent, zero).
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../open-store.js';
import { seedFinished } from '../contract/contract-support.js';
import { readDecisionCsv } from '../test-support/decision-csv-reader.js';
import { DECISION_CSV_COLUMNS } from '../decision-csv.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-decision-text-');
const KL = DECISION_CSV_COLUMNS.findIndex((c) => c.name === 'kl');
const LATENCY = DECISION_CSV_COLUMNS.findIndex((c) => c.name === 'latency_ms');

describe("the SQLite store's CSV text of a run", () => {
  it('carries every finite double exactly (property)', () => {
    const path = join(dir, 'runs.sqlite');
    const store = openStore(path);
    const { head } = seedFinished(store);
    store.close();
    const db = new Database(path);
    const setKl = db.prepare(
      `UPDATE decisions SET kl = ? WHERE run_id = ? AND status = 'answered' AND case_position = (
        SELECT min(case_position) FROM decisions WHERE run_id = ? AND status = 'answered') AND position = 0`,
    );
    const setLatency = db.prepare(`UPDATE cases SET latency_ms = ? WHERE run_id = ? AND request_status = 'answered'`);
    const doubles = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(
        0,
        5e-324,
        -5e-324,
        2 ** -41,
        2 ** -41 - 2 ** -94,
        2 ** 23,
        2 ** 23 - 2 ** -30,
        1.7976931348623157e308,
      ),
    );
    try {
      fc.assert(
        fc.property(doubles, doubles, (kl, latency) => {
          setKl.run(kl, head.id, head.id);
          setLatency.run(latency, head.id);
          const read = openStore(path, { mustExist: true, readOnly: true });
          try {
            const pieces: string[] = [];
            const decoder = new TextDecoder();
            expect(
              read.cases.decisionCsv(head.id, (p) => pieces.push(typeof p === 'string' ? p : decoder.decode(p))),
            ).toBe(true);
            const lines = readDecisionCsv(pieces.join(''));
            const values = [...read.cases.decisionValues(head.id)];
            // SQLite keeps no negative zero (a whole REAL is stored as an integer): both reads say 0.
            expect(values.map((v) => v[15])).toContain(kl === 0 ? 0 : kl);
            expect(lines.map((l) => l[KL])).toEqual(values.map((v) => v[15]));
            expect(lines.map((l) => l[LATENCY])).toEqual(values.map((v) => v[3]));
          } finally {
            read.close();
          }
        }),
        { numRuns: 150 },
      );
    } finally {
      db.close();
    }
  });
});
