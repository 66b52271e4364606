import { describe, expect, it } from 'vitest';
import { summarizeAudit, type AuditVerdictView } from './summary.js';
import type { AuditOutcome } from './verdict.js';

const CHECK = { id: 'claim-v1', options: ['yes', 'no'] };
const answered = (choice: string, p = 0.8) => ({
  choice,
  probabilities: choice === 'yes' ? { yes: p, no: 1 - p } : { yes: 1 - p, no: p },
});
function view(
  id: string,
  label: string,
  judged: string | 'unclear' | 'down',
  probe?: string,
  tags: string[] = [],
): AuditVerdictView {
  let outcome: AuditOutcome;
  if (judged === 'down') outcome = { status: 'unavailable', reason: 'timeout', message: 'late' };
  else if (judged === 'unclear')
    outcome = {
      status: 'abstained',
      reason: 'unclear',
      answer: { choice: 'unclear', probabilities: { yes: 0.1, no: 0.1, unclear: 0.8 } },
    };
  else outcome = { status: judged === label ? 'agrees' : 'disagrees', answer: answered(judged) };
  return {
    transcriptId: id,
    tags,
    checkId: CHECK.id,
    label,
    outcome,
    orderSwap: probe === undefined ? null : { kind: 'answered', answer: answered(probe) },
  };
}

describe('summarizeAudit', () => {
  it('computes agreement, kappa and the confusion matrix of a hand-worked case', () => {
    // Compared pairs (label -> judge): yes->yes x3, yes->no x1, no->no x2, no->yes x2; plus one
    // abstention (label yes) and one unavailable (label no), which kappa leaves out.
    // n = 8, po = 5/8; rows yes 4, no 4; columns yes 5, no 3: pe = (4*5 + 4*3) / 64 = 0.5.
    // kappa = (0.625 - 0.5) / 0.5 = 0.25; se = sqrt(0.625*0.375 / (8 * 0.25)) = sqrt(0.1171875).
    const verdicts = [
      view('a', 'yes', 'yes'),
      view('b', 'yes', 'yes'),
      view('c', 'yes', 'yes'),
      view('d', 'yes', 'no'),
      view('e', 'no', 'no'),
      view('f', 'no', 'no'),
      view('g', 'no', 'yes', undefined, ['injection']),
      view('h', 'no', 'yes'),
      view('i', 'yes', 'unclear'),
      view('j', 'no', 'down', undefined, ['injection']),
    ];
    const s = summarizeAudit([CHECK], verdicts);
    expect(s.counts).toEqual({ agrees: 5, disagrees: 3, abstained: 1, unavailable: 1 });
    expect(s.unavailable).toEqual({ timeout: 1 });
    const c = s.checks[0]!;
    expect(c.compared).toBe(8);
    expect(c.agreementRate).toBe(5 / 8);
    expect(c.kappa!.kappa).toBeCloseTo(0.25, 12);
    const se = Math.sqrt(0.1171875);
    expect(c.kappa!.low).toBeCloseTo(0.25 - 1.959963984540054 * se, 12);
    expect(c.kappa!.high).toBeCloseTo(Math.min(1, 0.25 + 1.959963984540054 * se), 12);
    expect(c.confusion).toEqual({
      labels: ['yes', 'no'],
      columns: ['yes', 'no', 'abstained', 'unavailable'],
      counts: [
        [3, 1, 1, 0],
        [2, 2, 0, 1],
      ],
    });
    expect(c.orderProbe).toBeNull();
    // Injection cases: g was compared and got it wrong; j has no verdict.
    expect(s.injection).toEqual({ compared: 1, flipped: ['g'] });
  });

  it('counts order flips over audits answered in both orders and flags the check', () => {
    const verdicts = [
      view('a', 'yes', 'yes', 'yes'),
      view('b', 'yes', 'yes', 'no'),
      view('c', 'no', 'no', 'no'),
      view('d', 'no', 'yes', 'no'),
      view('e', 'no', 'down'),
    ];
    const s = summarizeAudit([CHECK], verdicts);
    expect(s.checks[0]!.orderProbe).toEqual({ pairs: 4, flipRate: 0.5, flipped: ['b', 'd'] });
    expect(s.orderDependent).toEqual(['claim-v1']);
    const steady = summarizeAudit([CHECK], [view('a', 'yes', 'yes', 'yes')]);
    expect(steady.orderDependent).toEqual([]);
    expect(steady.checks[0]!.orderProbe!.flipRate).toBe(0);
  });

  it('gives null rates, not zeros, when nothing was compared', () => {
    const s = summarizeAudit([CHECK], [view('a', 'yes', 'down')]);
    expect(s.checks[0]!.agreementRate).toBeNull();
    expect(s.checks[0]!.kappa).toBeNull();
  });
});
