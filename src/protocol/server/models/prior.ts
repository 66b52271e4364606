import { PRIOR_FILE_FLAG } from '../../../core/command-hints.js';
import { ProblemList } from '../../../core/problem-list.js';
import { answersOf, PROBABILITY_SUM_TOLERANCE, type Question, type QuestionSet } from '../../../core/question.js';
import { isRecord, preview } from '../../../core/json-value.js';
import type { DecisionModel } from './decision-model.js';
import { uniformDistribution } from './distribution.js';

/** A parsed prior file: per-question answer frequencies, looked up by the question itself. */
export interface PriorTable {
  readonly description: string;
  /** Key: `priorKey(type, instructions, answers)` -> distribution aligned with the answers. */
  readonly entries: ReadonlyMap<string, readonly number[]>;
}

/** Entries match a request's question when type, instructions and answers (in order) are equal. */
export function priorKey(type: string, instructions: string, answers: readonly string[]): string {
  return `${type}\u0000${instructions}\u0000${answers.join('\u0001')}`;
}

function keyOf(q: Question): string {
  return priorKey(q.type, q.instructions, answersOf(q));
}

/**
 * Parses a prior file: `{"description", "entries": [{"id", "type", "instructions",
 * "answers", "probabilities"}]}`. Probabilities must be aligned with answers, finite, in
 * [0, 1] and sum within PROBABILITY_SUM_TOLERANCE (0.01) of 1; they are renormalised to sum exactly 1.
 */
export function parsePriorTable(value: unknown, file: string): PriorTable {
  // A prior file is small and hand-written: twenty problems say enough.
  const problems = new ProblemList(20);
  const bad = (field: string, message: string) =>
    problems.add({ file, line: null, field, message: `${field}: ${message}` });
  if (!isRecord(value)) {
    bad('(root)', `must be an object with "description" and "entries", got ${preview(value)}`);
    throw problems.toError();
  }
  const description = typeof value['description'] === 'string' ? value['description'] : '';
  const raw = value['entries'];
  if (!Array.isArray(raw)) {
    bad('entries', `must be an array, got ${preview(raw)}`);
    throw problems.toError();
  }
  const entries = new Map<string, readonly number[]>();
  raw.forEach((e: unknown, i) => {
    const f = `entries[${i}]`;
    if (!isRecord(e)) return bad(f, `must be an object, got ${preview(e)}`);
    const { type, instructions, answers, probabilities } = e;
    if (type !== 'noul' && type !== 'choice' && type !== 'score')
      return bad(`${f}.type`, `must be "noul", "choice" or "score", got ${preview(type)}`);
    if (typeof instructions !== 'string' || instructions === '')
      return bad(`${f}.instructions`, `must be a non-empty string, got ${preview(instructions)}`);
    if (!Array.isArray(answers) || answers.length < 2 || !answers.every((a) => typeof a === 'string')) {
      return bad(`${f}.answers`, `must be an array of at least two answer names, got ${preview(answers)}`);
    }
    if (!Array.isArray(probabilities) || probabilities.length !== answers.length) {
      return bad(
        `${f}.probabilities`,
        `must be an array aligned with answers (${answers.length} numbers), got ${preview(probabilities)}`,
      );
    }
    let sum = 0;
    for (const p of probabilities) {
      if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1)
        return bad(`${f}.probabilities`, `every probability must be a number in [0, 1], got ${preview(p)}`);
      sum += p;
    }
    if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE)
      return bad(`${f}.probabilities`, `must sum to 1 (within ${PROBABILITY_SUM_TOLERANCE}), got ${sum}`);
    entries.set(
      priorKey(type, instructions, answers as string[]),
      (probabilities as number[]).map((p) => p / sum),
    );
    return undefined;
  });
  problems.throwIfAny();
  return { description, entries };
}

/** Per-question prior frequencies; a question not in the table gets the uniform answer. */
export function createPriorModel(table: PriorTable | null): DecisionModel {
  return {
    name: 'prior',
    description: table
      ? `per-question answer frequencies from a prior file (${table.entries.size} questions${table.description ? `: ${table.description}` : ''}); uniform for other questions; ignores the state`
      : `no prior file found: answers uniformly (pass ${PRIOR_FILE_FLAG})`,
    answer: (_state, questions: QuestionSet) =>
      questions.map(([, q]) => table?.entries.get(keyOf(q)) ?? uniformDistribution(answersOf(q).length)),
  };
}
