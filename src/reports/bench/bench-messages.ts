/** The short lines `bench` prints around its report (on stderr): what it starts, how it ends. */
import { plural } from '../format.js';
import type { BenchStart } from '../../core/bench/bench-start.js';
import type { SentCredentials } from '../../core/endpoint-identity.js';
import {
  benchResumeCommand,
  markdownReportCommand,
  runsShowCommand,
  credentialsAgainNote,
} from '../../core/command-hints.js';

export function renderBenchStart(s: BenchStart): string {
  return (
    `decidekit bench: ${s.toSend} of ${s.total} cases (${s.datasetName}) against ${s.target}` +
    (s.resumingRunId ? `, resuming run ${s.resumingRunId}` : '') +
    (s.filtered ? ' [filtered run]' : '')
  );
}

export interface BenchEnding {
  readonly runId: string;
  /** The run is in the store (and `storeOption` names it as the user gave it, if not the default). */
  readonly saved: boolean;
  readonly storeOption: string | null;
  /** False when the run was never to be stored (`--no-store`): nothing of it is kept. */
  readonly stored: boolean;
  readonly interrupted: boolean;
  readonly casesKept: number;
  readonly casesTotal: number;
  readonly failedCases: number;
  readonly complete: boolean;
  readonly writeError: string | null;
  /** The credentials the run sent, which a resume must give again (they are never stored). */
  readonly credentials: SentCredentials | null;
}

/** The closing lines after the report: a write error, the resume or show hint. */
export function renderBenchEnding(e: BenchEnding, options: { readonly quiet: boolean }): string[] {
  const lines: string[] = [];
  if (e.writeError !== null) {
    lines.push(
      `decidekit bench: ${e.writeError}.` +
        (e.saved ? ` The run is saved: ${markdownReportCommand(e.runId, e.storeOption)}` : ''),
    );
  }
  if (e.interrupted && !e.stored) {
    lines.push(
      `decidekit bench: interrupted after ${e.casesKept} of ${plural(e.casesTotal, 'case')}; nothing was kept (the run was not stored, so it cannot be resumed).`,
    );
  } else if (e.interrupted) {
    // Every case kept and some failed (a --retry-failed resume stopped): only a retry has more to send.
    const retryFailed = e.casesKept === e.casesTotal && e.failedCases > 0;
    lines.push(
      `decidekit bench: interrupted; ${e.casesKept} of ${e.casesTotal} cases kept.` +
        (e.saved
          ? ` Resume with: ${benchResumeCommand(e.runId, { retryFailed, store: e.storeOption })}${credentialsAgainNote(e.credentials)}`
          : ''),
    );
  } else if (e.saved && !e.complete) {
    const unsent = e.casesTotal - e.casesKept;
    const what = [
      ...(e.failedCases > 0 ? [plural(e.failedCases, 'failed case')] : []),
      ...(unsent > 0 ? [`${plural(unsent, 'case')} not sent`] : []),
    ];
    lines.push(
      `run ${e.runId} is incomplete${what.length > 0 ? ` (${what.join(', ')})` : ''}; to finish it: ${benchResumeCommand(e.runId, { retryFailed: e.failedCases > 0, store: e.storeOption })}${credentialsAgainNote(e.credentials)}`,
    );
  } else if (e.saved && !options.quiet) {
    lines.push(`run ${e.runId} saved; see it with: ${runsShowCommand(e.runId, e.storeOption)}`);
  }
  return lines;
}
