import type { Question, QuestionSet } from '../../../core/question.js';
import { assertNever } from '../../../core/question.js';
import type { DecisionModel } from './decision-model.js';
import { levelDistribution, softmax, softNoul, withFloor } from './distribution.js';
import { createStateText, readGeneric, type StateText } from './generic-reader.js';
import { agentTraceSignals } from './heuristic-agent-trace.js';
import { customerServiceSignals } from './heuristic-customer-service.js';
import { invoiceSignals } from './heuristic-invoice.js';
import { securitySignals } from './heuristic-security.js';
import type { Signals } from './heuristic-signals.js';
import { textOf } from './state-reading.js';

type Workflow = 'agent_trace_observability' | 'customer_service' | 'invoice_processing' | 'security_incidents';

const READERS: Readonly<Record<Workflow, (state: unknown) => Signals>> = {
  agent_trace_observability: agentTraceSignals,
  customer_service: customerServiceSignals,
  invoice_processing: invoiceSignals,
  security_incidents: securitySignals,
};

/** The 20 Typed Decisions questions, recognised by their instructions: workflow and question name. */
const KNOWN: ReadonlyMap<string, readonly [Workflow, string]> = new Map([
  ['What should the observability system do with this trace?', ['agent_trace_observability', 'action']],
  ['This trace requires human review.', ['agent_trace_observability', 'needs_review']],
  ['How did this agent run turn out?', ['agent_trace_observability', 'outcome']],
  ["How risky was the agent's behaviour in this trace?", ['agent_trace_observability', 'risk']],
  ['How quickly does this trace need attention?', ['agent_trace_observability', 'urgency']],
  ['What should the assistant do next with this conversation?', ['customer_service', 'action']],
  ['What is this customer conversation primarily about?', ['customer_service', 'category']],
  [
    'How likely is this customer to stop doing business with us because of this interaction?',
    ['customer_service', 'churn_risk'],
  ],
  ['This conversation requires a human agent rather than automated handling.', ['customer_service', 'needs_human']],
  ['How time-sensitive is this conversation?', ['customer_service', 'urgency']],
  [
    'How material is any discrepancy between the invoice, the order and the delivery?',
    ['invoice_processing', 'discrepancy_severity'],
  ],
  ['How should this vendor invoice be dispositioned?', ['invoice_processing', 'disposition']],
  ['This invoice appears to duplicate an invoice already submitted.', ['invoice_processing', 'duplicate']],
  [
    'The invoice reconciles with the purchase order and the recorded delivery.',
    ['invoice_processing', 'matches_order'],
  ],
  ['How time-sensitive is processing this invoice?', ['invoice_processing', 'urgency']],
  [
    'The evidence indicates a credential or account has been compromised.',
    ['security_incidents', 'credential_compromise'],
  ],
  ['How should this security alert be dispositioned?', ['security_incidents', 'disposition']],
  ['How severe is the potential impact if this alert is real?', ['security_incidents', 'severity']],
  ['This alert reflects genuinely malicious or unauthorised activity.', ['security_incidents', 'true_positive']],
  ['How quickly does this alert need a response?', ['security_incidents', 'urgency']],
]);

/** Level count of each recognised score question (security severity has five levels). */
const SCORE_LEVELS: Readonly<Record<string, number>> = { 'security_incidents/severity': 5 };

/** The distribution for a recognised question, or null when its shape differs (then the generic reader answers). */
function readKnown(question: Question, signals: Signals, workflow: Workflow, name: string): readonly number[] | null {
  switch (question.type) {
    case 'choice': {
      const logits = signals.choice[name];
      if (logits === undefined) return null;
      const names = Object.keys(logits);
      if (
        names.length !== question.options.length ||
        !question.options.every((o) => Object.prototype.hasOwnProperty.call(logits, o))
      )
        return null;
      return withFloor(softmax(question.options.map((o) => logits[o]!)));
    }
    case 'score': {
      const mean = signals.score[name];
      if (mean === undefined || question.levels.length !== (SCORE_LEVELS[`${workflow}/${name}`] ?? 4)) return null;
      return withFloor(levelDistribution(question.levels.length, mean, 0.7));
    }
    case 'noul': {
      const z = signals.noul[name];
      if (z === undefined) return null;
      const p = softNoul(z);
      return [p, 1 - p];
    }
    default:
      return assertNever(question);
  }
}

/**
 * The default built-in model: reads the state of the four Typed Decisions workflows
 * (recognising their 20 questions by instructions and answers) and answers with graded
 * probabilities; any other question goes to a generic lexical reader. Pure and
 * deterministic; a baseline to exercise the pipeline, not a competitive model.
 */
export const heuristicModel: DecisionModel = {
  name: 'heuristic',
  description:
    'reads the Typed Decisions state shapes (totals, counts, flags, cue words) for its 20 questions; generic lexical reader otherwise',
  answer(state, questions: QuestionSet) {
    const signals = new Map<Workflow, Signals>();
    let text: StateText | null = null;
    return questions.map(([, question]) => {
      const known = KNOWN.get(question.instructions);
      if (known !== undefined && typeof state === 'object') {
        const [workflow, name] = known;
        let s = signals.get(workflow);
        if (s === undefined) {
          s = READERS[workflow](state);
          signals.set(workflow, s);
        }
        const d = readKnown(question, s, workflow, name);
        if (d !== null) return d;
      }
      text ??= createStateText(typeof state === 'string' ? state.toLowerCase() : textOf(state));
      return withFloor(readGeneric(question, text));
    });
  },
};
