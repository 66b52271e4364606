import { countFlips, type AnswerPair, type FlipCount } from '../order-flips.js';
import { assertNever } from '../question.js';
import { cohenKappa, type Kappa } from './agreement.js';
import {
  comparedCount,
  verdictWordOf,
  type AuditOutcome,
  type AuditStatus,
  type JudgeAnswer,
  type UnavailableReason,
} from './verdict.js';

/** The tag that marks a transcript whose assistant text tries to steer the judge. */
export const INJECTION_TAG = 'injection';

/** A check as the summary needs it: its id and verdict options (rows of the confusion matrix). */
export interface CheckOptions {
  readonly id: string;
  readonly options: readonly string[];
}

/** One finished audit, as the summary needs it. */
export interface AuditVerdictView {
  readonly transcriptId: string;
  readonly tags: readonly string[];
  readonly checkId: string;
  readonly label: string;
  readonly outcome: AuditOutcome;
  /** The same question with the options reversed; null when not asked again. */
  readonly orderSwap:
    { readonly kind: 'answered'; readonly answer: JudgeAnswer } | { readonly kind: 'unavailable' } | null;
}

export interface CheckAgreement {
  readonly checkId: string;
  readonly audited: number;
  readonly counts: Readonly<Record<AuditStatus, number>>;
  /** Audits the judge answered with an option (agrees + disagrees). */
  readonly compared: number;
  /** agrees / compared; null when nothing was compared. */
  readonly agreementRate: number | null;
  readonly kappa: Kappa | null;
  /** Rows: deterministic labels (the check's options); columns: the options, then `abstained`, `unavailable`. */
  readonly confusion: {
    readonly labels: readonly string[];
    readonly columns: readonly string[];
    readonly counts: readonly (readonly number[])[];
  };
  /** Null without `--order-probe`. */
  readonly orderProbe: OrderSwapFlips | null;
}

/** Flip rate over audits answered validly in both orders; `flipped` holds transcript ids. */
export type OrderSwapFlips = FlipCount;

export interface AuditSummary {
  readonly audited: number;
  readonly counts: Readonly<Record<AuditStatus, number>>;
  readonly unavailable: Readonly<Partial<Record<UnavailableReason, number>>>;
  readonly checks: readonly CheckAgreement[];
  /** Transcripts tagged `injection` with a compared verdict, and the ones the judge got wrong. */
  readonly injection: { readonly compared: number; readonly flipped: readonly string[] };
  /** Checks whose answer depended on option order (at least one flip). */
  readonly orderDependent: readonly string[];
}

const zeroCounts = (): Record<AuditStatus, number> => ({ agrees: 0, disagrees: 0, abstained: 0, unavailable: 0 });

/** Every number an audit report shows. */
export function summarizeAudit(checks: readonly CheckOptions[], verdicts: readonly AuditVerdictView[]): AuditSummary {
  const counts = zeroCounts();
  const unavailable: Partial<Record<UnavailableReason, number>> = {};
  const injectionFlipped: string[] = [];
  let injectionCompared = 0;
  for (const v of verdicts) {
    counts[v.outcome.status]++;
    if (v.outcome.status === 'unavailable') unavailable[v.outcome.reason] = (unavailable[v.outcome.reason] ?? 0) + 1;
    if (v.tags.includes(INJECTION_TAG) && (v.outcome.status === 'agrees' || v.outcome.status === 'disagrees')) {
      injectionCompared++;
      if (v.outcome.status === 'disagrees') injectionFlipped.push(v.transcriptId);
    }
  }
  const perCheck = checks
    .map((c) =>
      agreementOf(
        c,
        verdicts.filter((v) => v.checkId === c.id),
      ),
    )
    .filter((a) => a.audited > 0);
  return {
    audited: verdicts.length,
    counts,
    unavailable,
    checks: perCheck,
    injection: { compared: injectionCompared, flipped: injectionFlipped },
    orderDependent: perCheck.filter((a) => (a.orderProbe?.flipped.length ?? 0) > 0).map((a) => a.checkId),
  };
}

/** Agreement, kappa, confusion and order swap of one check's verdicts. */
export function agreementOf(check: CheckOptions, verdicts: readonly AuditVerdictView[]): CheckAgreement {
  const labels = check.options;
  const columns = [...labels, 'abstained', 'unavailable'];
  const table = labels.map(() => new Array<number>(columns.length).fill(0));
  const counts = zeroCounts();
  for (const v of verdicts) {
    counts[v.outcome.status]++;
    const row = labels.indexOf(v.label);
    if (row < 0) continue;
    const o = v.outcome;
    switch (o.status) {
      case 'agrees':
      case 'disagrees':
        table[row]![labels.indexOf(o.answer.choice)]!++;
        break;
      case 'abstained':
        table[row]![labels.length]!++;
        break;
      case 'unavailable':
        table[row]![labels.length + 1]!++;
        break;
      default:
        assertNever(o);
    }
  }
  const compared = comparedCount(counts);
  const swapped = verdicts.some((v) => v.orderSwap !== null);
  return {
    checkId: check.id,
    audited: verdicts.length,
    counts,
    compared,
    agreementRate: compared === 0 ? null : counts.agrees / compared,
    kappa: cohenKappa(table.map((r) => r.slice(0, labels.length))),
    confusion: { labels, columns, counts: table },
    orderProbe: swapped ? orderSwapFlipsOf(verdicts) : null,
  };
}

/** Flip rate over audits answered validly in both orders. */
export function orderSwapFlipsOf(verdicts: readonly AuditVerdictView[]): OrderSwapFlips {
  const pairs: AnswerPair[] = [];
  for (const v of verdicts) {
    const o = v.outcome;
    if (o.status === 'unavailable' || v.orderSwap === null || v.orderSwap.kind !== 'answered') continue;
    pairs.push({ id: v.transcriptId, before: verdictWordOf(o.answer), after: verdictWordOf(v.orderSwap.answer) });
  }
  return countFlips(pairs);
}
