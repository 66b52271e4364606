import type { Question, QuestionSet } from '../../core/question.js';
import { isRecord, preview } from '../../core/json-value.js';
import { parseWireQuestion, toWireQuestion, toWireQuestions } from '../../core/question-rules.js';

export {
  MAX_CHOICE_OPTIONS,
  MAX_SCORE_LEVELS,
  MIN_CHOICE_OPTIONS,
  MIN_SCORE_LEVELS,
} from '../../core/question-rules.js';

/** One problem in a wire `questions` value: which question, which field, what is wrong. */
export interface WireQuestionsProblem {
  /** The question id, or null for a problem with the whole `questions` value. */
  readonly questionId: string | null;
  /** Field path, e.g. `questions.route.criteria`. */
  readonly field: string;
  readonly message: string;
}

export type ParsedWireQuestions =
  | { readonly ok: true; readonly questions: QuestionSet }
  | { readonly ok: false; readonly problems: readonly WireQuestionsProblem[] };

/**
 * Parses a wire `questions` object (id -> question) into domain questions, in the order
 * given. Returns every problem found, each naming the question id and field; `where` is
 * the field-path prefix of the value (e.g. `questions`). Each question is checked by the
 * core `parseWireQuestion` with unknown fields ignored, as llama.cpp ignores unknown keys:
 * a client that sends an extra field still gets its answers.
 *
 * Limitation: the value usually comes from `JSON.parse`, which moves integer-like keys
 * ("0", "1", "12") to the front of an object in ascending numeric order. A choice whose
 * option names are such keys therefore arrives re-ordered, and so do integer-like question
 * ids. Word option names (every Typed Decisions question) are unaffected. Requests built
 * by this module (`renderDecideRequest`) keep the given order, because they are written
 * without going through an object.
 */
export function parseWireQuestions(value: unknown, where: string): ParsedWireQuestions {
  if (!isRecord(value)) {
    return {
      ok: false,
      problems: [
        {
          questionId: null,
          field: where,
          message: `must be an object of question id -> question, got ${preview(value)}`,
        },
      ],
    };
  }
  const ids = Object.keys(value);
  if (ids.length === 0) {
    return {
      ok: false,
      problems: [{ questionId: null, field: where, message: 'must hold at least one question, got {}' }],
    };
  }
  const problems: WireQuestionsProblem[] = [];
  const out: Array<readonly [string, Question]> = [];
  for (const id of ids) {
    if (id.length === 0) {
      problems.push({ questionId: id, field: `${where}.`, message: 'a question id must not be empty' });
      continue;
    }
    const parsed = parseWireQuestion(value[id], { unknownFields: 'ignore' });
    if (parsed.ok) {
      out.push([id, parsed.question]);
      continue;
    }
    for (const p of parsed.problems) {
      problems.push({
        questionId: id,
        field: p.field === '' ? `${where}.${id}` : `${where}.${id}.${p.field}`,
        message: p.message,
      });
    }
  }
  return problems.length === 0 ? { ok: true, questions: out } : { ok: false, problems };
}

/**
 * The wire JSON of questions, in the given order: choice criteria are written option by
 * option (never via an object, so integer-like option names keep their place).
 */
export function renderWireQuestions(questions: QuestionSet): string {
  // Fast path: one native JSON.stringify of plain objects, when no key would be moved.
  if (!questions.some(([id, q]) => isIndexKey(id) || (q.type === 'choice' && q.options.some(isIndexKey)))) {
    return JSON.stringify(toWireQuestions(questions));
  }
  let out = '{';
  for (let i = 0; i < questions.length; i++) {
    const [id, q] = questions[i]!;
    if (i > 0) out += ',';
    out += `${JSON.stringify(id)}:${renderWireQuestion(q)}`;
  }
  return `${out}}`;
}

/** A key JS objects order first: a canonical array index ("0", "17"; not "01" or "-1"). */
function isIndexKey(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57) return false;
  return String(Number(key) >>> 0) === key && key !== '4294967295';
}

/**
 * One question's wire JSON: the core's `toWireQuestion`, except that a choice's criteria are
 * written option by option so integer-like option names keep their place.
 */
export function renderWireQuestion(q: Question): string {
  if (q.type !== 'choice') return JSON.stringify(toWireQuestion(q));
  const criteria = q.options.map((o, i) => `${JSON.stringify(o)}:${JSON.stringify(q.descriptions[i] ?? null)}`);
  return `{"type":"choice","instructions":${JSON.stringify(q.instructions)},"criteria":{${criteria.join(',')}}}`;
}
