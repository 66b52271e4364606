/**
 * Writes the bundled inbox-triage demo of `decidekit actions`: twelve emails, each a group
 * of three yes/no fields (is_noise, needs_reply, urgent), the example action spec
 * of docs/file-formats.md, and two invented models' saved results. Deterministic (seeded
 * generator, fixed rounding): running it twice gives byte-identical files, and a test
 * checks that the committed files match.
 *
 *   npx tsx scripts/make-inbox-sample.ts [OUT_DIR]     (default data/inbox)
 *
 * The models are made so the field ranking and the action ranking disagree:
 * - fieldsharp-1: one field wrong in 36, but that one calls an urgent request (a task) noise,
 *   so the email is ignored: a task->ignore error, the costliest in the spec (10).
 * - actionwise-1: four fields wrong, but its mistakes either leave the action unchanged or
 *   make a cheap error (ignore->task, draft->task: default cost 1).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSeededRandom } from '../src/core/seeded-random.js';

const FIELDS = ['is_noise', 'needs_reply', 'urgent'] as const;
type Field = (typeof FIELDS)[number];

const QUESTIONS: Record<Field, string> = {
  is_noise: 'Is this email noise (newsletter, promotion, spam)?',
  needs_reply: 'Does this email need a reply from me?',
  urgent: 'Is this email urgent (needs attention today)?',
};

/** Subject and gold [is_noise, needs_reply, urgent]; the gold action is in the comment. */
const EMAILS: readonly (readonly [string, readonly [boolean, boolean, boolean]])[] = [
  ['Weekly digest: 10 productivity hacks you missed', [true, false, false]], // ignore
  ['Production database is down: can you approve the failover now?', [false, true, true]], // task
  ['Could you look over my draft slides when you have a moment?', [false, true, false]], // draft
  ['Your order #4471 has shipped', [false, false, false]], // ignore
  ['Client contract needs your signature by 5pm today', [false, true, true]], // task
  ['50% off all running shoes this weekend only', [true, false, false]], // ignore
  ['Lunch next week? Tell me which day works', [false, true, false]], // draft
  ['FYI: the office is closed today because of the storm', [false, false, true]], // ignore
  ['Auditor needs the Q3 numbers before tomorrow 9am', [false, true, true]], // task
  ['Congratulations, you have been selected for a free cruise', [true, false, false]], // ignore
  ['Question about section 2 of the onboarding doc', [false, true, false]], // draft
  ["Minutes of yesterday's team meeting", [false, false, false]], // ignore
];

interface ModelSpec {
  readonly name: string;
  readonly seed: number;
  /** Fields the model gets wrong, as `mail-N:field`, with the P(yes) it gives them. */
  readonly misses: Readonly<Record<string, number>>;
  /** Range of the confidence it puts on the right answer elsewhere. */
  readonly confidence: readonly [number, number];
  readonly costUsd: readonly [number, number];
  readonly latencyMs: readonly [number, number];
}

const MODELS: readonly ModelSpec[] = [
  {
    name: 'fieldsharp-1',
    seed: 11,
    misses: { 'mail-2:is_noise': 0.62 },
    confidence: [0.86, 0.98],
    costUsd: [0.0011, 0.0015],
    latencyMs: [420, 640],
  },
  {
    name: 'actionwise-1',
    seed: 22,
    misses: { 'mail-3:urgent': 0.56, 'mail-4:urgent': 0.64, 'mail-8:needs_reply': 0.58, 'mail-12:is_noise': 0.57 },
    confidence: [0.7, 0.93],
    costUsd: [0.0007, 0.001],
    latencyMs: [300, 520],
  },
];

/** The example action spec of docs/file-formats.md ("Action spec"). */
export const INBOX_SPEC = {
  actions: ['task', 'draft', 'ignore'],
  inaction: 'ignore',
  rules: [
    { when: { is_noise: true }, action: 'ignore' },
    { when: { needs_reply: true, urgent: true }, action: 'task' },
    { when: { needs_reply: true }, action: 'draft' },
    { action: 'ignore' },
  ],
  costs: { 'task->ignore': 10, 'draft->ignore': 6, 'task->draft': 3 },
  default_error: 1,
};

const round = (x: number, digits: number) => Number(x.toFixed(digits));
const between = (rnd: () => number, [lo, hi]: readonly [number, number]) => lo + (hi - lo) * rnd();

function inboxCases(): { id: string; kind: 'yes_no'; group: string; prompt: string; correct: boolean }[] {
  return EMAILS.flatMap(([subject, gold], i) =>
    FIELDS.map((f, k) => ({
      id: `mail-${i + 1}:${f}`,
      kind: 'yes_no' as const,
      group: `mail-${i + 1}`,
      prompt: `Subject: "${subject}". ${QUESTIONS[f]}`,
      correct: gold[k]!,
    })),
  );
}

function resultLines(spec: ModelSpec): string {
  const rnd = createSeededRandom(spec.seed);
  const lines = inboxCases().map((c) => {
    const miss = spec.misses[c.id];
    const confidence = between(rnd, spec.confidence);
    const probability = miss ?? (c.correct ? confidence : 1 - confidence);
    return JSON.stringify({
      case_id: c.id,
      model: spec.name,
      decision: { probability: round(probability, 3) },
      cost_usd: round(between(rnd, spec.costUsd), 6),
      latency_ms: Math.round(between(rnd, spec.latencyMs)),
    });
  });
  return `${lines.join('\n')}\n`;
}

/** The spec as people write it: one key a line, one rule a line. */
function renderSpec(): string {
  const entries = Object.entries(INBOX_SPEC).map(([key, value]) =>
    key === 'rules'
      ? `  "rules": [\n${INBOX_SPEC.rules.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`
      : `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{\n${entries.join(',\n')}\n}\n`;
}

/** Every file of the sample, by name. */
export function makeInboxSample(): Map<string, string> {
  const files = new Map<string, string>();
  files.set(
    'dataset.jsonl',
    `${inboxCases()
      .map((c) => JSON.stringify(c))
      .join('\n')}\n`,
  );
  files.set('spec.json', renderSpec());
  for (const spec of MODELS) files.set(`results-${spec.name}.jsonl`, resultLines(spec));
  return files;
}

export function writeInboxSample(outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of makeInboxSample()) {
    const path = join(outDir, name);
    writeFileSync(path, text);
    written.push(path);
  }
  return written;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = process.argv[2] ?? join(import.meta.dirname, '..', 'data', 'inbox');
  for (const path of writeInboxSample(outDir)) process.stdout.write(`wrote ${path}\n`);
}
