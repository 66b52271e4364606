/**
 * Writes decidekit's synthetic sample in the Typed Decisions schema to
 * data/typed-decisions-sample/ (or the folder given as the first argument):
 * test.jsonl, train.jsonl, prior.json, manifest.json, NOTICE. Seeded: every run writes the
 * same bytes. Run: npx tsx scripts/make-typed-decisions-sample.ts [OUT_DIR]
 *
 * Hidden factors per case drive both the state and a "teacher" whose three noisy samples
 * are averaged into soft gold, as in the real data. The factors are not written out.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { answersOf, type Question } from '../src/core/question.js';
import { argmaxFirst, brierScore, klDivergence } from '../src/core/decision-score.js';
import { parseWireQuestion } from '../src/core/question-rules.js';
import { sha256Hex } from '../src/datasets/typed-decisions/file-hash.js';
import { MANIFEST_FORMAT, renderManifest } from '../src/datasets/typed-decisions/manifest.js';
import { SAMPLE_ATTRIBUTION, SAMPLE_ID, TYPED_DECISIONS_URL } from '../src/datasets/typed-decisions/provenance.js';
import { generateAgentTrace } from './typed-decisions-sample/agent-trace.js';
import { generateCustomerService } from './typed-decisions-sample/customer-service.js';
import { generateInvoice } from './typed-decisions-sample/invoice-processing.js';
import { Prng } from './typed-decisions-sample/prng.js';
import { QUESTION_SCHEMAS, WORKFLOWS, type WorkflowName } from './typed-decisions-sample/question-schemas.js';
import { generateSecurityIncident } from './typed-decisions-sample/security-incidents.js';
import { teacherGold, type GeneratedCase, type Gold } from './typed-decisions-sample/teacher.js';

export const SAMPLE_SEED = 20260;
export const TEST_CASES_PER_WORKFLOW = 25;
export const TRAIN_CASES_PER_WORKFLOW = 50;
const GENERATOR_SCRIPT = 'scripts/make-typed-decisions-sample.ts';

const GENERATORS: Record<WorkflowName, (rng: Prng) => GeneratedCase> = {
  agent_trace_observability: generateAgentTrace,
  customer_service: generateCustomerService,
  invoice_processing: generateInvoice,
  security_incidents: generateSecurityIncident,
};

/** One generated case with its hidden side (factors, noise-free logits) kept for analysis. */
export interface SampleCase {
  readonly id: string;
  readonly workflow: WorkflowName;
  readonly state: Record<string, unknown>;
  readonly factors: Record<string, unknown>;
  readonly questions: readonly {
    readonly id: string;
    readonly question: Question;
    readonly logits: readonly number[];
    readonly gold: Gold;
  }[];
}

function questionsOf(workflow: WorkflowName): [string, Question][] {
  return Object.entries(QUESTION_SCHEMAS[workflow]).map(([qid, wire]) => {
    const parsed = parseWireQuestion(wire);
    if (!parsed.ok)
      throw new Error(
        `schema ${workflow}/${qid}: ${parsed.problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      );
    return [qid, parsed.question];
  });
}

export function generateSplit(split: 'test' | 'train', perWorkflow: number, seed: number = SAMPLE_SEED): SampleCase[] {
  const out: SampleCase[] = [];
  for (const workflow of WORKFLOWS) {
    const questions = questionsOf(workflow);
    for (let i = 1; i <= perWorkflow; i++) {
      const id = `${split === 'train' ? 'tr_' : ''}${workflow}_${String(i).padStart(6, '0')}`;
      const generated = GENERATORS[workflow](new Prng(`${seed}/${split}/${workflow}/${i}/state`));
      const teacher = new Prng(`${seed}/${split}/${workflow}/${i}/teacher`);
      out.push({
        id,
        workflow,
        state: generated.state,
        factors: generated.factors,
        questions: questions.map(([qid, question]) => {
          const logits = generated.logits[qid];
          if (logits === undefined || logits.length !== answersOf(question).length)
            throw new Error(`${workflow}/${qid}: logits do not match the answers`);
          return { id: qid, question, logits, gold: teacherGold(teacher, logits) };
        }),
      });
    }
  }
  return out;
}

/** The decoded row, exactly as stored: gold keys in the dataset's order (noul false-first). */
export function renderRow(c: SampleCase): string {
  const questions: Record<string, unknown> = {};
  const gold: Record<string, unknown> = {};
  for (const q of c.questions) {
    questions[q.id] = QUESTION_SCHEMAS[c.workflow][q.id as keyof (typeof QUESTION_SCHEMAS)[typeof c.workflow]];
    const answers = answersOf(q.question);
    const probabilities: Record<string, number> = {};
    const order = q.question.type === 'noul' ? [1, 0] : answers.map((_, i) => i);
    for (const i of order) probabilities[answers[i]!] = q.gold.probabilities[i]!;
    gold[q.id] = { label: answers[q.gold.labelIndex], probabilities };
  }
  return JSON.stringify({ id: c.id, workflow: c.workflow, state: c.state, questions, gold });
}

export interface PriorEntry {
  readonly id: string;
  readonly type: Question['type'];
  readonly instructions: string;
  readonly answers: readonly string[];
  readonly probabilities: readonly number[];
}

/** Per-question label frequencies of the train split, add-one smoothed so no answer gets 0. */
export function fitPrior(train: readonly SampleCase[]): PriorEntry[] {
  const counts = new Map<string, { question: Question; counts: number[] }>();
  for (const c of train) {
    for (const q of c.questions) {
      const key = `${c.workflow}/${q.id}`;
      let entry = counts.get(key);
      if (entry === undefined) {
        entry = { question: q.question, counts: answersOf(q.question).map(() => 0) };
        counts.set(key, entry);
      }
      entry.counts[q.gold.labelIndex]!++;
    }
  }
  return [...counts.entries()].map(([id, { question, counts: n }]) => {
    const total = n.reduce((a, b) => a + b, 0) + n.length;
    return {
      id,
      type: question.type,
      instructions: question.instructions,
      answers: [...answersOf(question)],
      probabilities: n.map((k) => (k + 1) / total),
    };
  });
}

const NOTICE = `decidekit synthetic sample in the Typed Decisions schema
=========================================================

SYNTHETIC DATA. Every state, gold distribution and label in this folder was generated by
${GENERATOR_SCRIPT} (seed ${SAMPLE_SEED}) from hidden random factors and a simulated
"teacher". It is not Typed Decisions data, and numbers measured on it are not Typed
Decisions scores. Use it for demos and tests only.

The 20 question schemas (workflows, question ids, instructions, options and level texts)
are taken from Typed Decisions:

  LocalLLaMA/typed-decisions
  ${TYPED_DECISIONS_URL}
  License: Apache License 2.0 (https://www.apache.org/licenses/LICENSE-2.0)

The urgency instructions of invoice_processing and security_incidents were not found in
public copies of that dataset; they carry plausible wording. The state layouts follow the
keys seen in real rows; their contents are invented.

Files
  test.jsonl   ${TEST_CASES_PER_WORKFLOW * 4} cases (${TEST_CASES_PER_WORKFLOW} per workflow, 5 questions each), ids <workflow>_<6 digits>
  train.jsonl  ${TRAIN_CASES_PER_WORKFLOW * 4} cases with tr_-prefixed ids (not benchmark material)
  prior.json   per-question label frequencies of train.jsonl (add-one smoothed)
  manifest.json  provenance and sha256 of the data files, checked on every load
`;

/** Every file of the sample, by name, as the exact text to write. */
export function renderSampleFiles(seed: number = SAMPLE_SEED): Map<string, string> {
  const test = generateSplit('test', TEST_CASES_PER_WORKFLOW, seed);
  const train = generateSplit('train', TRAIN_CASES_PER_WORKFLOW, seed);
  const testText = test.map(renderRow).join('\n') + '\n';
  const trainText = train.map(renderRow).join('\n') + '\n';
  const prior = {
    description: `Per-question label frequencies of ${SAMPLE_ID} train (${train.length} cases), add-one smoothed: (count + 1) / (cases + answers). Synthetic: not fitted on Typed Decisions.`,
    entries: fitPrior(train),
  };
  const manifest = renderManifest({
    format: MANIFEST_FORMAT,
    id: SAMPLE_ID,
    url: null,
    revision: `synthetic-${seed}-${sha256Hex(testText + trainText).slice(0, 12)}`,
    license: 'Apache-2.0',
    synthetic: true,
    attribution: SAMPLE_ATTRIBUTION,
    source: null,
    generator: { script: GENERATOR_SCRIPT, seed },
    files: [
      {
        split: 'test',
        path: 'test.jsonl',
        sha256: sha256Hex(testText),
        bytes: Buffer.byteLength(testText),
        rows: test.length,
      },
      {
        split: 'train',
        path: 'train.jsonl',
        sha256: sha256Hex(trainText),
        bytes: Buffer.byteLength(trainText),
        rows: train.length,
      },
    ],
    restore: 'reinstall decidekit, or in a source checkout run `npx tsx scripts/make-typed-decisions-sample.ts`',
  });
  return new Map([
    ['test.jsonl', testText],
    ['train.jsonl', trainText],
    ['prior.json', `${JSON.stringify(prior, null, 2)}\n`],
    ['manifest.json', manifest],
    ['NOTICE', NOTICE],
  ]);
}

export async function writeSampleFiles(outDir: string, seed: number = SAMPLE_SEED): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files = renderSampleFiles(seed);
  for (const [name, text] of files) await writeFile(join(outDir, name), text);
  return [...files.keys()];
}

/**
 * Reference points of the sample, as the dataset card gives them for the real data:
 * uniform, train prior, and "perfect understanding" (the teacher's noise-free answer).
 */
export function analyseSample(seed: number = SAMPLE_SEED) {
  const test = generateSplit('test', TEST_CASES_PER_WORKFLOW, seed);
  const prior = new Map(
    fitPrior(generateSplit('train', TRAIN_CASES_PER_WORKFLOW, seed)).map((e) => [e.id, e.probabilities]),
  );
  let n = 0;
  let ties = 0;
  const acc = { uniform: 0, prior: 0, oracle: 0 };
  const kl = { uniform: 0, prior: 0 };
  const brier = { uniform: 0, prior: 0 };
  const byType: Record<string, number> = {};
  for (const c of test) {
    for (const q of c.questions) {
      n++;
      byType[q.question.type] = (byType[q.question.type] ?? 0) + 1;
      if (q.gold.tie) ties++;
      const k = q.logits.length;
      const uniform = Array.from({ length: k }, () => 1 / k);
      const p = prior.get(`${c.workflow}/${q.id}`)!;
      const g = q.gold.probabilities;
      if (argmaxFirst(uniform) === q.gold.labelIndex) acc.uniform++;
      if (argmaxFirst(p) === q.gold.labelIndex) acc.prior++;
      if (argmaxFirst(q.logits) === q.gold.labelIndex) acc.oracle++;
      kl.uniform += klDivergence(g, uniform);
      kl.prior += klDivergence(g, p);
      brier.uniform += brierScore(g, uniform);
      brier.prior += brierScore(g, p);
    }
  }
  return {
    decisions: n,
    byType,
    ties,
    accuracy: { uniform: acc.uniform / n, prior: acc.prior / n, perfectUnderstanding: acc.oracle / n },
    kl: { uniform: kl.uniform / n, prior: kl.prior / n },
    brier: { uniform: brier.uniform / n, prior: brier.prior / n },
  };
}

async function main(argv: readonly string[]): Promise<void> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const outDir = resolve(argv[0] ?? join(here, '..', 'data', 'typed-decisions-sample'));
  const written = await writeSampleFiles(outDir);
  process.stdout.write(`wrote ${written.join(', ')} to ${outDir}\n`);
  process.stdout.write(`${JSON.stringify(analyseSample(), null, 2)}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
}
