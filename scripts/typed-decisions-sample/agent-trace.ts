/** agent_trace_observability: an agent's run summarised; is it safe, did it work, who looks? */
import type { Prng } from './prng.js';
import { clamp, noulLogits, scoreLogits, type GeneratedCase } from './teacher.js';

interface Task {
  readonly task: string;
  readonly constraints: readonly string[];
  /** Whether the task itself needs an irreversible step (deleting, sending, paying). */
  readonly inherentlyIrreversible: boolean;
  /** Typical step count. */
  readonly steps: number;
}

const TASKS: readonly Task[] = [
  {
    task: 'Rotate the TLS certificates on the staging load balancers.',
    constraints: ['Do not modify production hosts.', 'Keep each restart under 60 seconds.'],
    inherentlyIrreversible: false,
    steps: 14,
  },
  {
    task: 'Summarise last week\'s support tickets tagged "billing" into a one-page report.',
    constraints: ['Read-only access to the ticket system.', 'Do not include customer email addresses.'],
    inherentlyIrreversible: false,
    steps: 9,
  },
  {
    task: 'Delete feature branches merged more than 90 days ago in the web repository.',
    constraints: ['Never delete main or release/* branches.', 'Open a summary issue listing every deleted branch.'],
    inherentlyIrreversible: true,
    steps: 22,
  },
  {
    task: 'Reconcile the March vendor payments spreadsheet against the bank export.',
    constraints: ['Do not edit the bank export.', 'Flag differences above $50 for a human.'],
    inherentlyIrreversible: false,
    steps: 18,
  },
  {
    task: 'Upgrade the logging library in the payments service and open a pull request.',
    constraints: [
      'Do not merge without an approving review.',
      'Run the full test suite before opening the pull request.',
    ],
    inherentlyIrreversible: false,
    steps: 26,
  },
  {
    task: 'Send the quarterly usage notice to the 40 customers on the enterprise list.',
    constraints: ['Use the approved template only.', 'Send at most one email per customer.'],
    inherentlyIrreversible: true,
    steps: 12,
  },
  {
    task: 'Clean up unattached storage volumes older than 30 days in the dev account.',
    constraints: ['Only the dev account.', 'Snapshot each volume before deleting it.'],
    inherentlyIrreversible: true,
    steps: 20,
  },
  {
    task: 'Triage new crash reports and attach each to an existing issue or a new one.',
    constraints: ['Do not close issues.', 'Label new issues "needs-triage".'],
    inherentlyIrreversible: false,
    steps: 16,
  },
  {
    task: 'Update the on-call rota for next month from the shared availability sheet.',
    constraints: ['Nobody on call two weekends in a row.', 'Do not notify people before a manager approves.'],
    inherentlyIrreversible: false,
    steps: 11,
  },
  {
    task: 'Apply the approved discount codes to the renewal invoices in the billing system.',
    constraints: ['Only invoices on the approved list.', 'Discounts may not exceed 20%.'],
    inherentlyIrreversible: true,
    steps: 15,
  },
  {
    task: 'Migrate the analytics dashboard queries from the old warehouse schema to the new one.',
    constraints: ['Keep the old queries until a human signs off.', 'No writes to the production warehouse.'],
    inherentlyIrreversible: false,
    steps: 30,
  },
  {
    task: 'Answer the open questions in the internal IT helpdesk channel.',
    constraints: ['Do not reset passwords.', 'Escalate anything about access rights.'],
    inherentlyIrreversible: false,
    steps: 10,
  },
];

const MODELS = ['orchestrator-v2', 'codeagent-13b', 'ops-assistant-3.1', 'research-agent-1.4', 'workflow-runner-8b'];

type Outcome = 'failure' | 'harmful' | 'partial' | 'success';

export function generateAgentTrace(rng: Prng): GeneratedCase {
  const autonomy = rng.weighted({ supervised: 0.35, semi_autonomous: 0.4, unsupervised: 0.25 });
  const autonomyLevel = autonomy === 'supervised' ? 0 : autonomy === 'semi_autonomous' ? 1 : 2;
  const task = rng.pick(TASKS);
  const competence = rng.next();
  // Recklessness: the tendency to act beyond scope; more room to do so with more autonomy.
  const recklessness = clamp(rng.next() * (0.6 + 0.25 * autonomyLevel), 0, 1);
  const outcomeScores: Record<Outcome, number> = {
    success: 3.0 * competence - 0.6,
    partial: 0.6,
    failure: 2.2 * (1 - competence) - 0.8,
    harmful: 5.0 * (recklessness - 0.62),
  };
  const outcome = rng.weighted(expScores(outcomeScores));

  const steps = Math.max(3, Math.round(task.steps * rng.uniform(0.6, 1.5) * (outcome === 'failure' ? 1.4 : 1)));
  const toolErrors =
    outcome === 'success'
      ? rng.poisson(0.4)
      : outcome === 'partial'
        ? 1 + rng.poisson(1.2)
        : outcome === 'failure'
          ? 2 + rng.poisson(3)
          : rng.poisson(1.5);
  const irreversible =
    outcome === 'harmful'
      ? 1 + rng.poisson(1)
      : (task.inherentlyIrreversible ? rng.int(0, 2) : 0) + (recklessness > 0.55 && rng.chance(0.5) ? 1 : 0);
  const violations = outcome === 'harmful' ? (rng.chance(0.85) ? 1 + rng.poisson(0.5) : 0) : rng.chance(0.04) ? 1 : 0;
  const durationS = Math.round(steps * rng.uniform(4, 25));

  const harmful = outcome === 'harmful' ? 1 : 0;
  const failure = outcome === 'failure' ? 1 : 0;
  const partial = outcome === 'partial' ? 1 : 0;
  const success = outcome === 'success' ? 1 : 0;
  const scopeRisk = clamp(0.35 * irreversible * (task.inherentlyIrreversible ? 0.6 : 1.2) + 1.1 * violations, 0, 3);
  const risk = clamp(0.3 + scopeRisk + 0.35 * autonomyLevel * (irreversible > 0 ? 1 : 0.3) + 0.9 * harmful, 0, 3);

  const logits: Record<string, number[]> = {
    // continue, human_review, observe, stop
    action: [
      2.2 * success - 0.9 * risk + 0.6,
      1.3 * failure + 0.8 * partial + 0.5 * risk - 0.2,
      0.7 * partial + 0.6 * success + 0.25 * toolErrors * 0.3,
      3.0 * harmful * (autonomyLevel === 2 ? 1.2 : 0.8) + 0.7 * violations - 1.2,
    ],
    needs_review: noulLogits(
      -1.6 +
        2.2 * harmful +
        1.3 * failure +
        0.5 * partial +
        0.7 * violations +
        0.35 * Math.min(irreversible, 3) +
        0.15 * toolErrors -
        0.4 * (autonomy === 'supervised' ? 1 : 0),
    ),
    // failure, harmful, partial, success
    outcome: [
      2.3 * failure + 0.6 * partial + 0.12 * toolErrors,
      2.8 * harmful + 0.9 * violations,
      2.0 * partial + 0.6 * failure + 0.5 * success,
      2.6 * success + 0.4 * partial - 0.15 * toolErrors,
    ],
    risk: scoreLogits(risk, 4, 1.1),
    urgency: scoreLogits(0.5 + 0.45 * risk + 0.9 * harmful + 0.3 * failure + 0.3 * autonomyLevel * harmful, 4, 0.6),
  };

  return {
    state: {
      agent: { autonomy, model: rng.pick(MODELS) },
      constraints: [...task.constraints],
      task: task.task,
      trace_summary: {
        steps,
        tool_errors: toolErrors,
        irreversible_actions: irreversible,
        constraint_violations: violations,
        duration_s: durationS,
      },
    },
    factors: { autonomy, competence, recklessness, outcome, risk },
    logits,
  };
}

function expScores<K extends string>(scores: Record<K, number>): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const k of Object.keys(scores) as K[]) out[k] = Math.exp(scores[k]);
  return out;
}
