import { isRecord } from '../../../core/json-value.js';
import { at, countCues, numberAt, textOf } from './state-reading.js';
import type { Signals } from './heuristic-signals.js';

const CATEGORY_CUES: Readonly<Record<string, readonly string[]>> = {
  account: [
    'login',
    'log in',
    'sign in',
    'password',
    'locked',
    'access',
    'profile',
    'username',
    'two-factor',
    '2fa',
    'plan',
    'upgrade',
    'downgrade',
    'seat',
    'permission',
    'email address',
    'account settings',
  ],
  billing: [
    'charge',
    'invoice',
    'billing',
    'billed',
    'subscription',
    'payment',
    'card',
    'overcharg',
    'twice',
    'fee',
    'price',
    'renewal',
  ],
  delivery: [
    'deliver',
    'shipping',
    'shipped',
    'shipment',
    'package',
    'parcel',
    'tracking',
    'courier',
    'arrived',
    'arrive',
    'order',
    'damaged',
    'missing item',
    'warehouse',
  ],
  refund: ['refund', 'money back', 'reimburse', 'return it', 'give me back', 'credit back'],
  technical: [
    'error',
    'bug',
    'crash',
    'not working',
    "doesn't work",
    'does not work',
    'broken',
    'fails',
    'failing',
    'slow',
    'outage',
    'sync',
    'integration',
    'api',
    'timeout',
    'freez',
  ],
};
const ANGRY = [
  'unacceptable',
  'ridiculous',
  'furious',
  'angry',
  'terrible',
  'worst',
  'disappointed',
  'frustrat',
  'annoyed',
  'again',
  'still',
  'third time',
  'second time',
  'nobody',
  'no one',
  'waste',
  'awful',
  'fed up',
];
const CHURN = [
  'cancel',
  'leave',
  'leaving',
  'switch to',
  'switching',
  'competitor',
  'close my account',
  'dispute',
  'chargeback',
  'lawyer',
  'legal',
  'done with',
  'never again',
  'take my business',
];
const URGENT = [
  'urgent',
  'asap',
  'immediately',
  'right now',
  'today',
  'deadline',
  'outage',
  'is down',
  "can't work",
  'cannot work',
  'blocked',
  'production',
  'critical',
  'emergency',
];
const SETTLED = [
  'thanks',
  'thank you',
  'resolved',
  'works now',
  'all good',
  'that fixed',
  'solved',
  'perfect',
  'never mind',
  'sorted',
];
const VAGUE = ["don't know", 'not sure', 'something', 'some issue', 'a problem', 'help'];

/** The customer's side of the thread (roles other than agent/assistant/system), lower-cased. */
function customerText(state: unknown): string {
  const thread = at(state, 'thread');
  if (!Array.isArray(thread)) return textOf(state);
  const parts: string[] = [];
  for (const m of thread) {
    if (!isRecord(m)) continue;
    const role = typeof m['role'] === 'string' ? m['role'].toLowerCase() : '';
    if (role === 'agent' || role === 'assistant' || role === 'system' || role === 'support') continue;
    parts.push(textOf(m['text'] ?? m['content'] ?? m));
  }
  return parts.join(' ');
}

/**
 * customer_service: cue words in the customer's messages (topic, anger, churn threats,
 * urgency, "thanks/resolved", refund requests, question marks), `account.tier`,
 * `account.prior_tickets_90d` and `tenure_months`.
 */
export function customerServiceSignals(state: unknown): Signals {
  const text = customerText(state);
  const tier = textOf(at(state, 'account', 'tier'));
  const tierHigh = /enterprise|business|premium|platinum|gold|pro/.test(tier) ? 1 : 0;
  const tierLow = /free|basic|trial|starter/.test(tier) ? 1 : 0;
  const prior = Math.min(numberAt(state, 'account', 'prior_tickets_90d') ?? 0, 6);
  const tenure = numberAt(state, 'account', 'tenure_months') ?? 12;
  const angry = Math.min(countCues(text, ANGRY), 3);
  const churn = Math.min(countCues(text, CHURN), 2);
  const urgent = Math.min(countCues(text, URGENT), 3);
  const settled = Math.min(countCues(text, SETTLED), 2);
  const vague = Math.min(countCues(text, VAGUE), 2);
  const questions = Math.min((text.match(/\?/g) ?? []).length, 3);
  const short = text.length < 80 ? 1 : 0;
  const cues: Record<string, number> = {};
  for (const [name, list] of Object.entries(CATEGORY_CUES)) cues[name] = Math.min(countCues(text, list), 4);
  const refund = cues['refund']!;

  return {
    choice: {
      category: {
        account: 1.0 * cues['account']!,
        billing: 1.0 * cues['billing']! + 0.2 * refund,
        delivery: 1.0 * cues['delivery']!,
        refund: 1.3 * refund,
        technical: 1.0 * cues['technical']!,
      },
      action: {
        answer_directly:
          0.6 + 0.25 * questions + 0.2 * Math.min(cues['account']! + cues['technical']!, 2) - 0.3 * angry,
        close_no_action: -0.9 + 1.5 * settled,
        escalate_to_human: -0.9 + 0.45 * angry + 0.9 * churn + 0.3 * tierHigh + 0.08 * prior,
        execute_refund: -1.0 + 1.1 * refund + 0.2 * cues['billing']!,
        request_information: -0.3 + 0.5 * short + 0.4 * vague - 0.2 * settled,
      },
    },
    score: {
      churn_risk:
        0.3 + 0.45 * angry + 1.0 * churn + 0.12 * prior - 0.6 * settled - (tenure > 36 ? 0.2 : 0) + 0.2 * tierLow,
      urgency: 1.0 + 0.5 * urgent + 0.25 * angry + 0.35 * churn + 0.3 * tierHigh - 0.7 * settled,
    },
    noul: {
      needs_human: -1.0 + 0.5 * angry + 0.9 * churn + 0.4 * tierHigh + 0.45 * refund - 0.9 * settled,
    },
  };
}
