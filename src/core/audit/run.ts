import type { EndpointIdentity } from '../endpoint-identity.js';
import type { StoredStatus } from '../run-status.js';
import type { CheckSet, EvidenceScope } from './check.js';
import type { AuditSummary } from './summary.js';
import type { AuditOutcome, JudgeAnswer, UnavailableReason } from './verdict.js';

/** Everything that defines an audit (no secrets: the judge key is never part of it). */
export interface AuditConfig {
  readonly toolVersion: string;
  /** Scheme, host, port and path only; the embedded server is `embedded://reference-server`. */
  readonly judgeEndpoint: EndpointIdentity;
  /** Sent as `model`; with the embedded server, the built-in model judging. */
  readonly judgeModel: string | null;
  /**
   * The judge was sent a key (never the key itself), so a resume asks for one again;
   * absent in audits stored before this was kept.
   */
  readonly judgeKeyUsed?: boolean;
  /**
   * The judge was sent its base URL's user and password (never the values; a key given
   * wins), so a resume asks for them again; absent in audits stored before this was kept.
   */
  readonly judgeUserAndPasswordUsed?: boolean;
  readonly set: CheckSet;
  readonly orderProbe: boolean;
  /** The files as given (for messages and resume defaults). */
  readonly transcriptsFile: string;
  readonly checksFile: string;
  /** The selected checks with the hash of their question. */
  readonly checks: readonly AuditCheckRef[];
}

/** A selected check as the stored run remembers it. */
export interface AuditCheckRef {
  readonly id: string;
  readonly questionSha256: string;
  readonly scope: EvidenceScope;
  /** The verdict options (without `unclear`): the rows of the confusion matrix. */
  readonly options: readonly string[];
}

/** One planned audit: a transcript, a check, and the exact input (checkpointed before judging). */
export interface AuditItem {
  readonly transcriptId: string;
  readonly tags: readonly string[];
  readonly checkId: string;
  readonly questionSha256: string;
  readonly scope: EvidenceScope;
  /** The forward question as sent (JSON). */
  readonly questionJson: string;
  /** The exact request body sent (or that would have been); '' when there was no evidence. */
  readonly input: string;
  readonly label: string;
}

/** The answer to the same question with the options reversed. */
export type OrderSwapResult =
  | { readonly kind: 'answered'; readonly answer: JudgeAnswer; readonly elapsedMs: number }
  | { readonly kind: 'unavailable'; readonly reason: UnavailableReason; readonly message: string };

/** A finished audit. */
export interface AuditRecord extends AuditItem {
  readonly outcome: AuditOutcome;
  /** The judge request, retries included; null when nothing was sent. */
  readonly elapsedMs: number | null;
  readonly orderSwap: OrderSwapResult | null;
}

export interface AuditRun {
  readonly id: string;
  readonly createdAt: string;
  readonly status: StoredStatus;
  readonly label: string | null;
  readonly durationMs: number | null;
  readonly config: AuditConfig;
  /** Finished audits in plan order. */
  readonly records: readonly AuditRecord[];
  /** Planned audits not finished (after an interruption). */
  readonly pending: readonly AuditItem[];
  readonly summary: AuditSummary;
}
