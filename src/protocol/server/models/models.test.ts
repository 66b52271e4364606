import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../core/errors.js';
import { answersOf, type Question, type QuestionSet } from '../../../core/question.js';
import { parseWireQuestions } from '../../wire/questions-json.js';
import { TYPED_DECISIONS_QUESTIONS } from '../../test-support/fixtures.js';
import { createBuiltInModels } from './index.js';
import { heuristicModel } from './heuristic.js';
import { createPriorModel, parsePriorTable, priorKey } from './prior.js';
import { readPriorFile } from './prior-file.js';
import { tempFoldersRemovedAfterEach } from '../../../datasets/test-support/temp-folders.js';

function questionsOf(workflow: string): QuestionSet {
  const r = parseWireQuestions(TYPED_DECISIONS_QUESTIONS[workflow], 'questions');
  if (!r.ok) throw new Error('fixture');
  return r.questions;
}

/** The heuristic's distribution for one Typed Decisions question of a workflow. */
function answer(workflow: string, question: string, state: object): readonly number[] {
  const qs = questionsOf(workflow);
  const i = qs.findIndex(([id]) => id === question);
  return heuristicModel.answer(state, qs)[i]!;
}
function p(workflow: string, question: string, state: object, option: string): number {
  const qs = questionsOf(workflow);
  const q = qs.find(([id]) => id === question)![1];
  return answer(workflow, question, state)[answersOf(q).indexOf(option)]!;
}
function mean(d: readonly number[]): number {
  return d.reduce((s, x, i) => s + i * x, 0);
}

const questionArb: fc.Arbitrary<Question> = fc.oneof(
  fc.record({ type: fc.constant('noul' as const), instructions: fc.string({ minLength: 1 }) }),
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 10 }), { minLength: 2, maxLength: 12 })
    .chain((options) =>
      fc
        .array(fc.option(fc.string(), { nil: null }), { minLength: options.length, maxLength: options.length })
        .map((descriptions): Question => ({ type: 'choice', instructions: 'Pick one', options, descriptions })),
    ),
  fc
    .array(fc.string(), { minLength: 2, maxLength: 10 })
    .map((levels): Question => ({ type: 'score', instructions: 'Rate', levels })),
);
const knownQuestionArb = fc.constantFrom(...Object.keys(TYPED_DECISIONS_QUESTIONS)).map(questionsOf);
const questionSetArb = fc.oneof(
  knownQuestionArb,
  fc
    .array(questionArb, { minLength: 1, maxLength: 6 })
    .map((qs): QuestionSet => qs.map((q, i) => [`q${i}`, q] as const)),
);
const stateArb = fc.oneof(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));

describe('built-in models', () => {
  const models = createBuiltInModels(null);

  it('return one valid distribution per question, aligned with its answers, deterministically', () => {
    fc.assert(
      fc.property(fc.constantFrom(...models.keys()), questionSetArb, stateArb, (name, questions, state) => {
        const model = models.get(name)!;
        const out = model.answer(state, questions);
        expect(out).toHaveLength(questions.length);
        out.forEach((d, i) => {
          expect(d).toHaveLength(answersOf(questions[i]![1]).length);
          for (const x of d) expect(Number.isFinite(x) && x >= 0 && x <= 1).toBe(true);
          expect(Math.abs(d.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-9);
        });
        expect(model.answer(structuredClone(state), questions)).toEqual(out);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('uniform gives equal probability and noul 0.5', () => {
    const out = models.get('uniform')!.answer('x', questionsOf('security_incidents'));
    expect(out.map((d) => d.length)).toEqual([2, 4, 5, 2, 4]);
    expect(out[0]).toEqual([0.5, 0.5]);
    expect(out[2]).toEqual([0.2, 0.2, 0.2, 0.2, 0.2]);
  });

  it('the heuristic never answers one-hot', () => {
    fc.assert(
      fc.property(knownQuestionArb, stateArb, (questions, state) => {
        for (const d of heuristicModel.answer(state, questions)) expect(Math.max(...d)).toBeLessThan(0.995);
      }),
      { seed: 42, numRuns: 100 },
    );
  });
});

describe('the heuristic reads the state', () => {
  const cleanInvoice = {
    invoice: {
      id: 'INV-2026-0042',
      vendor: 'Acme',
      currency: 'USD',
      lines: [{ sku: 'A-1', qty: 10, unit_usd: 12.5, total_usd: 125 }],
      total_usd: 125,
    },
    purchase_order: {
      id: 'PO-9',
      lines: [{ sku: 'A-1', qty: 10, unit_usd: 12.5, total_usd: 125 }],
      total_usd: 125,
      freight_terms: 'FOB',
    },
    delivery: { date: '2026-01-02', received_qty: 10, condition: 'good' },
    payment: {
      terms: 'net 30',
      days_until_due: 25,
      early_payment_discount_pct: 0,
      discount_expires_in_days: 0,
      status: 'open',
    },
    vendor_history: { invoices_12m: 12, disputes_12m: 0, prior_invoice_ids: ['INV-2026-0001'] },
  };

  it('invoice: a clean three-way match approves; a repeated id is a duplicate to reject', () => {
    expect(p('invoice_processing', 'matches_order', cleanInvoice, 'true')).toBeGreaterThan(0.8);
    expect(p('invoice_processing', 'duplicate', cleanInvoice, 'true')).toBeLessThan(0.1);
    const top = (s: object) => {
      const d = answer('invoice_processing', 'disposition', s);
      return ['approve', 'hold', 'manual_review', 'reject'][d.indexOf(Math.max(...d))];
    };
    expect(top(cleanInvoice)).toBe('approve');
    const dup = {
      ...cleanInvoice,
      vendor_history: { ...cleanInvoice.vendor_history, prior_invoice_ids: ['INV-2026-0042'] },
    };
    expect(p('invoice_processing', 'duplicate', dup, 'true')).toBeGreaterThan(0.85);
    expect(top(dup)).toBe('reject');
  });

  it('invoice: a total far above the order and a short delivery are material discrepancies', () => {
    const over = {
      ...cleanInvoice,
      invoice: {
        ...cleanInvoice.invoice,
        total_usd: 190,
        lines: [{ sku: 'A-1', qty: 10, unit_usd: 19, total_usd: 190 }],
      },
    };
    const short = { ...cleanInvoice, delivery: { ...cleanInvoice.delivery, received_qty: 6 } };
    for (const s of [over, short]) {
      expect(mean(answer('invoice_processing', 'discrepancy_severity', s))).toBeGreaterThan(
        mean(answer('invoice_processing', 'discrepancy_severity', cleanInvoice)) + 1.5,
      );
      expect(p('invoice_processing', 'matches_order', s, 'true')).toBeLessThan(0.3);
    }
  });

  it('invoice: an overdue payment is more urgent than one due in two months', () => {
    const overdue = { ...cleanInvoice, payment: { ...cleanInvoice.payment, days_until_due: -3, status: 'overdue' } };
    const later = { ...cleanInvoice, payment: { ...cleanInvoice.payment, days_until_due: 60 } };
    expect(mean(answer('invoice_processing', 'urgency', overdue))).toBeGreaterThan(
      mean(answer('invoice_processing', 'urgency', later)) + 1,
    );
  });

  it('agent traces: constraint violations and irreversible actions raise risk, review and harm', () => {
    const calm = {
      agent: { autonomy: 'supervised', model: 'm' },
      constraints: [],
      task: 'summarise a doc',
      trace_summary: { steps: 5, tool_errors: 0, irreversible_actions: 0, constraint_violations: 0, duration_s: 20 },
    };
    const bad = {
      ...calm,
      agent: { autonomy: 'unsupervised', model: 'm' },
      trace_summary: { steps: 30, tool_errors: 2, irreversible_actions: 2, constraint_violations: 2, duration_s: 300 },
    };
    expect(mean(answer('agent_trace_observability', 'risk', bad))).toBeGreaterThan(
      mean(answer('agent_trace_observability', 'risk', calm)) + 1.5,
    );
    expect(p('agent_trace_observability', 'needs_review', bad, 'true')).toBeGreaterThan(0.8);
    expect(p('agent_trace_observability', 'needs_review', calm, 'true')).toBeLessThan(0.3);
    expect(p('agent_trace_observability', 'outcome', bad, 'harmful')).toBeGreaterThan(
      p('agent_trace_observability', 'outcome', calm, 'harmful') * 5,
    );
    expect(p('agent_trace_observability', 'action', calm, 'continue')).toBeGreaterThan(0.4);
  });

  it('customer service: reads the topic, the refund request and the churn threat from the thread', () => {
    const refund = {
      account: { tier: 'pro', tenure_months: 3, prior_tickets_90d: 2 },
      thread: [
        {
          role: 'customer',
          text: 'I want my money back. Refund the order now or I will cancel and dispute the charge!',
        },
      ],
    };
    const login = {
      account: { tier: 'free', tenure_months: 40, prior_tickets_90d: 0 },
      thread: [{ role: 'customer', text: 'How do I reset my password? I cannot log in.' }],
    };
    const topOf = (s: object) => {
      const d = answer('customer_service', 'category', s);
      return ['account', 'billing', 'delivery', 'refund', 'technical'][d.indexOf(Math.max(...d))];
    };
    expect(topOf(refund)).toBe('refund');
    expect(topOf(login)).toBe('account');
    expect(mean(answer('customer_service', 'churn_risk', refund))).toBeGreaterThan(
      mean(answer('customer_service', 'churn_risk', login)) + 1,
    );
    expect(p('customer_service', 'needs_human', refund, 'true')).toBeGreaterThan(
      p('customer_service', 'needs_human', login, 'true'),
    );
  });

  it('security: an allowlisted source in a change window reads benign; impossible travel without MFA reads compromised', () => {
    const benign = {
      alert: {
        rule: 'admin login',
        description: 'scheduled maintenance login from known host',
        evidence: ['approved change ticket'],
      },
      principal: { name: 'ops-bot', type: 'service', privileges: ['read'], mfa_enrolled: true },
      history: { logins_30d: 300, distinct_countries_30d: 1, prior_alerts_90d: 0, credential_rotation_days_ago: 10 },
      context: { asset_criticality: 'low', change_window_active: true, source_on_allowlist: true },
    };
    const hostile = {
      alert: {
        rule: 'impossible travel',
        description: 'suspicious sign-in from new country followed by mass download',
        evidence: ['tor exit node'],
      },
      principal: { name: 'cfo', type: 'human', privileges: ['admin'], mfa_enrolled: false },
      history: { logins_30d: 20, distinct_countries_30d: 4, prior_alerts_90d: 2, credential_rotation_days_ago: 400 },
      context: { asset_criticality: 'critical', change_window_active: false, source_on_allowlist: false },
    };
    expect(p('security_incidents', 'true_positive', hostile, 'true')).toBeGreaterThan(0.8);
    expect(p('security_incidents', 'true_positive', benign, 'true')).toBeLessThan(0.2);
    expect(p('security_incidents', 'credential_compromise', hostile, 'true')).toBeGreaterThan(0.8);
    expect(p('security_incidents', 'disposition', benign, 'close_benign')).toBeGreaterThan(0.5);
    expect(mean(answer('security_incidents', 'severity', hostile))).toBeGreaterThan(
      mean(answer('security_incidents', 'severity', benign)) + 1.5,
    );
  });

  it('answers an unknown choice by lexical overlap with the state', () => {
    const questions: QuestionSet = [
      [
        'team',
        {
          type: 'choice',
          instructions: 'Which team?',
          options: ['billing', 'shipping'],
          descriptions: ['charges and refunds', 'parcels and couriers'],
        },
      ],
    ];
    const [d] = heuristicModel.answer({ ticket: 'The courier lost my parcel' }, questions);
    expect(d![1]).toBeGreaterThan(d![0]!);
    const [e] = heuristicModel.answer('I was charged twice, refunds please', questions);
    expect(e![0]).toBeGreaterThan(e![1]!);
  });

  it('falls back to the generic reader when a known instruction comes with other options', () => {
    const questions: QuestionSet = [
      [
        'x',
        {
          type: 'choice',
          instructions: 'How should this vendor invoice be dispositioned?',
          options: ['pay', 'wait'],
          descriptions: [null, null],
        },
      ],
    ];
    const [d] = heuristicModel.answer({}, questions);
    expect(d).toHaveLength(2);
    expect(d![0]).toBeCloseTo(0.5, 9);
  });
});

describe('prior model', () => {
  const priorFolder = tempFoldersRemovedAfterEach('decidekit-prior-');

  const file = {
    description: 'synthetic train split',
    entries: [
      {
        id: 'customer_service/needs_human',
        type: 'noul',
        instructions: 'This conversation requires a human agent rather than automated handling.',
        answers: ['true', 'false'],
        probabilities: [0.3, 0.7],
      },
    ],
  };

  it('answers a matching question from the table and others uniformly', () => {
    const model = createPriorModel(parsePriorTable(file, 'prior.json'));
    const qs = questionsOf('customer_service');
    const out = model.answer({}, qs);
    const i = qs.findIndex(([id]) => id === 'needs_human');
    expect(out[i]).toEqual([0.3, 0.7]);
    expect(out[0]).toEqual([0.2, 0.2, 0.2, 0.2, 0.2]);
    expect(model.description).toMatch(/1 questions: synthetic train split/);
  });

  it('matches on type, instructions and answers all equal', () => {
    const table = parsePriorTable(file, 'prior.json');
    expect(table.entries.has(priorKey('noul', file.entries[0]!.instructions, ['true', 'false']))).toBe(true);
    expect(table.entries.has(priorKey('noul', file.entries[0]!.instructions, ['false', 'true']))).toBe(false);
  });

  it('names the file and field of a bad entry', () => {
    const bad = {
      entries: [
        { ...file.entries[0], probabilities: [0.3, 0.3] },
        { ...file.entries[0], answers: ['true'] },
      ],
    };
    try {
      parsePriorTable(bad, 'prior.json');
      throw new Error('expected InvalidInputError');
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidInputError);
      const problems = (err as InvalidInputError).problems;
      expect(problems.map((x) => [x.file, x.field])).toEqual([
        ['prior.json', 'entries[0].probabilities'],
        ['prior.json', 'entries[1].answers'],
      ]);
      expect(problems[0]!.message).toMatch(/sum to 1/);
    }
  });

  it('reads a prior file from disk and reports a missing or broken one', () => {
    const dir = priorFolder();
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(file));
    writeFileSync(join(dir, 'bad.json'), '{"entries": [');
    expect(readPriorFile(join(dir, 'ok.json')).entries.size).toBe(1);
    expect(() => readPriorFile(join(dir, 'bad.json'))).toThrow(/bad\.json: not valid JSON/);
    expect(() => readPriorFile(join(dir, 'none.json'))).toThrow(
      /none\.json: cannot read the prior file \(no such file or folder\)/,
    );
  });
});
