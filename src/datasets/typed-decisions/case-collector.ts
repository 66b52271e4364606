import { given } from '../../core/given.js';
import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import type { GoldAnswer } from '../../core/decision-score.js';
import type { Question, QuestionSet, QuestionType } from '../../core/question.js';

/** Distinct gold answers remembered for sharing (bounds the map on data where few repeat). */
const MAX_SHARED_GOLDS = 100_000;
import { ProblemList } from '../../core/problem-list.js';
import { canonicalQuestionText } from '../../core/question-rules.js';
import { parseDecodedRow } from './decoded-row.js';
import { questionHash } from './question-set.js';

/**
 * Collects the cases of one file row by row and checks what spans rows: unique case ids,
 * and one schema per `workflow/question` (a question that changes between cases would
 * make per-question results meaningless).
 */
export class CaseCollector {
  readonly #file: string;
  readonly #cases: TypedDecisionsCase[] = [];
  readonly #problems = new ProblemList();
  readonly #firstLineOfId = new Map<string, number>();
  readonly #schemas = new Map<string, { text: string; line: number; caseId: string; question: Question }>();
  /** One shared gold answer per distinct answer: gold means of a few teacher samples repeat a lot. */
  readonly #golds = new Map<string, GoldAnswer>();
  /** One shared question set per distinct set: a large file repeats a few sets many times. */
  readonly #questionSets = new Map<string, QuestionSet>();
  readonly #sharedSets = new Set<QuestionSet>();

  readonly #uniqueIds: boolean;

  /**
   * `uniqueIds: false` skips the duplicate-id check and its map (one entry a case), for a
   * second read of rows already checked.
   */
  constructor(file: string, options: { readonly uniqueIds?: boolean } = {}) {
    this.#file = file;
    this.#uniqueIds = options.uniqueIds !== false;
  }

  /** Checks one decoded row and keeps its case; `line` is its 1-based line (JSONL) or row (parquet) number. */
  add(value: unknown, line: number, questions?: QuestionSet): TypedDecisionsCase | null {
    const c = this.check(value, line, questions);
    if (c !== null) this.#cases.push(c);
    return c;
  }

  /**
   * Checks one decoded row like `add` (its problems are recorded) and returns its case
   * (questions and gold shared with earlier cases) without keeping it, or null. `questions`:
   * the row's questions are, byte for byte, those of a row of its workflow that passed
   * (a set `isShared` gave), so they are not read from `value` or checked again.
   */
  check(value: unknown, line: number, questions?: QuestionSet): TypedDecisionsCase | null {
    const parsed = parseDecodedRow(value, questions);
    if (!parsed.ok) {
      for (const p of parsed.problems) this.problem(line, p.message, parsed.caseId, p.field);
      return null;
    }
    const c = parsed.benchCase;
    if (this.#uniqueIds) {
      const first = this.#firstLineOfId.get(c.id);
      if (first !== undefined) {
        this.problem(line, `duplicate case id ${c.id} (first on line ${first})`, c.id, 'id');
        return null;
      }
      this.#firstLineOfId.set(c.id, line);
    }
    if (questions !== undefined) return { ...c, gold: c.gold.map((g) => this.#sharedGold(g)) };
    let sameSchemas = true;
    for (const [qid, question] of c.questions) {
      const key = `${c.workflow}/${qid}`;
      const text = canonicalQuestionText(question);
      const seen = this.#schemas.get(key);
      if (seen === undefined) this.#schemas.set(key, { text, line, caseId: c.id, question });
      else if (seen.text !== text) {
        sameSchemas = false;
        this.problem(
          line,
          `question ${qid}: its schema differs from ${key} in case ${seen.caseId} (line ${seen.line}); one question id must mean one question within a workflow`,
          c.id,
          `questions.${qid}`,
        );
      }
    }
    const gold = c.gold.map((g) => this.#sharedGold(g));
    return sameSchemas ? { ...c, questions: this.#shared(c.workflow, c.questions), gold } : { ...c, gold };
  }

  /** Whether `questions` is a set this collector shares between cases (all their schemas checked alike). */
  isShared(questions: QuestionSet): boolean {
    return this.#sharedSets.has(questions);
  }

  #sharedGold(gold: GoldAnswer): GoldAnswer {
    const key = goldKey(gold);
    const found = this.#golds.get(key);
    if (found !== undefined) return found;
    if (this.#golds.size < MAX_SHARED_GOLDS) this.#golds.set(key, gold);
    return gold;
  }

  /**
   * The case's questions as objects shared with every earlier case of the same workflow and
   * question ids (their schemas are equal, checked above), so memory grows with the number
   * of distinct questions rather than with the number of cases.
   */
  #shared(workflow: string, questions: QuestionSet): QuestionSet {
    const key = `${workflow}\u0000${questions.map(([qid]) => qid).join('\u0000')}`;
    const found = this.#questionSets.get(key);
    if (found !== undefined) return found;
    const set: QuestionSet = questions.map(
      ([qid]) => [qid, this.#schemas.get(`${workflow}/${qid}`)!.question] as const,
    );
    this.#questionSets.set(key, set);
    this.#sharedSets.add(set);
    return set;
  }

  /** Records a problem with a row (e.g. JSON that does not parse). */
  problem(line: number | null, message: string, caseId?: string, field?: string): void {
    this.#problems.add({
      file: this.#file,
      line,
      ...given({ caseId, field }),
      message,
    });
  }

  /**
   * `workflow/qid` -> 16-hex sha256 of the question's canonical text, keys sorted: what
   * `questionSetOf` gives for the cases checked so far (their schemas agree, or `finish` throws).
   */
  questionSet(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of [...this.#schemas.keys()].sort()) out[key] = questionHash(this.#schemas.get(key)!.text);
    return out;
  }

  /** `workflow/qid` -> the question's type, keys sorted, for the cases checked so far. */
  questionTypes(): Record<string, QuestionType> {
    const out: Record<string, QuestionType> = {};
    for (const key of [...this.#schemas.keys()].sort()) out[key] = this.#schemas.get(key)!.question.type;
    return out;
  }

  /** Throws InvalidInputError listing every problem found so far. */
  throwIfProblems(): void {
    this.#problems.throwIfAny();
  }

  get caseCount(): number {
    return this.#cases.length;
  }

  /** The cases in file order; throws InvalidInputError listing every problem found. */
  finish(): TypedDecisionsCase[] {
    this.#problems.throwIfAny();
    return this.#cases;
  }
}

const bits = new Float64Array(1);
const units = new Uint16Array(bits.buffer);

/**
 * A gold answer as a short string: its label index, then each probability's 64 bits as four
 * UTF-16 units (0 and -0 alike, as their decimal forms are). Equal keys are equal answers;
 * writing each probability out in decimal (a join) cost more than the rest of the row's check.
 */
function goldKey(gold: GoldAnswer): string {
  let key = String.fromCharCode(gold.labelIndex & 0xffff, gold.labelIndex >>> 16);
  for (const p of gold.probabilities) {
    bits[0] = p === 0 ? 0 : p;
    key += String.fromCharCode(units[0]!, units[1]!, units[2]!, units[3]!);
  }
  return key;
}
