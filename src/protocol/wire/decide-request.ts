import type { Question, QuestionSet } from '../../core/question.js';
import { JsonText } from '../../core/json-text.js';
import { renderWireQuestions } from './questions-json.js';

export interface DecideRequest {
  /** Sent when known; a router-mode server picks its model by it. */
  readonly model?: string | undefined;
  /** A string, or a JSON object/array sent as JSON (never re-stringified); a `JsonText` is sent as its text. */
  readonly state: string | object;
  readonly questions: QuestionSet;
}

/** The `POST /v1/systemone` body: `{model?, state, questions}` with questions in the given order. */
export function renderDecideRequest(request: DecideRequest): string {
  const model = request.model === undefined ? '' : `"model":${JSON.stringify(request.model)},`;
  const state = request.state instanceof JsonText ? request.state.text : JSON.stringify(request.state);
  if (state === undefined) throw new TypeError('state must be a string or a JSON object/array');
  return `{${model}"state":${state},"questions":${wireQuestionsText(request.questions)}}`;
}

/**
 * The wire text of each question set already sent, with the entries it was rendered from: a
 * dataset's cases share one set per workflow, so a run renders each set once, not once a
 * request. A set whose entries changed since (other ids or question objects) is rendered again.
 */
const renderedSets = new WeakMap<QuestionSet, { readonly entries: QuestionSet; readonly text: string }>();

function wireQuestionsText(questions: QuestionSet): string {
  const rendered = renderedSets.get(questions);
  if (rendered !== undefined && sameEntries(rendered.entries, questions)) return rendered.text;
  const text = renderWireQuestions(questions);
  renderedSets.set(questions, { entries: questions.map(([id, q]): readonly [string, Question] => [id, q]), text });
  return text;
}

function sameEntries(a: QuestionSet, b: QuestionSet): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]![0] !== b[i]![0] || a[i]![1] !== b[i]![1]) return false;
  return true;
}
