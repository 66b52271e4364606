/**
 * The text a Parquet export writes for DuckDB, by its worker thread (`decision-text-worker.ts`,
 * into pipes) or by the exporter (into temp files): the writer that spreads it over targets
 * without splitting a row (`textSplitter`), and the format's fingerprint: the text's fields
 * (`DECISION_CSV_COLUMNS`' names and kinds), its quote, and the version of the worker's
 * messages. Run from the sources, the exporter starts the worker compiled into `dist/`, which
 * may be older than the sources: the worker compares the exporter's fingerprint with its own
 * and writes nothing when they differ.
 */
import { createHash } from 'node:crypto';
import { closeSync, writeSync } from 'node:fs';
import { CSV_QUOTE, DECISION_CSV_COLUMNS } from '../../store/decision-csv.js';

/** The version of the worker's data and replies: raised with any change to either. */
const WORKER_PROTOCOL = 1;

/** The text format's fingerprint, 16 hex digits. */
export function decisionTextFormat(): string {
  const columns = DECISION_CSV_COLUMNS.map((c) => `${c.name}:${c.kind}`);
  const described = JSON.stringify({ protocol: WORKER_PROTOCOL, quote: CSV_QUOTE, columns });
  return createHash('sha256').update(described).digest('hex').slice(0, 16);
}

/** Writes a run's text into one target after another (`writeInto`). */
export interface TextSplitter {
  write(piece: Uint8Array | string): void;
  /** Closes the target open now, if any. */
  close(): void;
}

/**
 * A writer of the run's text into targets one after another: the next (`openNext`) is opened
 * when a piece comes for it and closed once it holds `bytes` or more and a piece ends a line
 * (no row is split), while `more()` says another target may follow.
 */
export function textSplitter(openNext: () => number, bytes: number, more: () => boolean = () => true): TextSplitter {
  let target: number | null = null;
  let written = 0;
  return {
    write(piece) {
      if (target === null) {
        target = openNext();
        written = 0;
      }
      written += typeof piece === 'string' ? writeSync(target, piece) : writeSync(target, piece);
      if (written >= bytes && endsLine(piece) && more()) {
        closeSync(target);
        target = null;
      }
    },
    close() {
      if (target !== null) closeSync(target);
      target = null;
    },
  };
}

function endsLine(piece: Uint8Array | string): boolean {
  return typeof piece === 'string' ? piece.endsWith('\n') : piece.at(-1) === 10;
}
