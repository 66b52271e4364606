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
 * The `POST /v1/systemone` body as UTF-8 bytes, the same bytes as `renderDecideRequest`'s
 * text: the question set's part is encoded once a run (the largest part of a request, the
 * same for every case of a workflow) and the state written straight into the body.
 */
export function renderDecideRequestBytes(request: DecideRequest): Buffer {
  const head = modelHead(request.model);
  const state = request.state instanceof JsonText ? request.state.text : JSON.stringify(request.state);
  if (state === undefined) throw new TypeError('state must be a string or a JSON object/array');
  const tail = wireQuestionsTail(request.questions);
  const stateBytes = Buffer.byteLength(state, 'utf8');
  const body = Buffer.allocUnsafe(head.length + stateBytes + tail.length);
  head.copy(body, 0);
  body.write(state, head.length, stateBytes, 'utf8');
  tail.copy(body, head.length + stateBytes);
  return body;
}

/** `{"model":…,"state":` as bytes, for the model last asked for (a client sends one). */
let lastHead: { readonly model: string | undefined; readonly bytes: Buffer } | null = null;

function modelHead(model: string | undefined): Buffer {
  if (lastHead === null || lastHead.model !== model) {
    const field = model === undefined ? '' : `"model":${JSON.stringify(model)},`;
    lastHead = { model, bytes: Buffer.from(`{${field}"state":`, 'utf8') };
  }
  return lastHead.bytes;
}

/** `,"questions":…}` as bytes, made once for each question set (again if its entries change). */
const encodedTails = new WeakMap<QuestionSet, { readonly text: string; readonly bytes: Buffer }>();

function wireQuestionsTail(questions: QuestionSet): Buffer {
  const text = wireQuestionsText(questions);
  const encoded = encodedTails.get(questions);
  if (encoded !== undefined && encoded.text === text) return encoded.bytes;
  const bytes = Buffer.from(`,"questions":${text}}`, 'utf8');
  encodedTails.set(questions, { text, bytes });
  return bytes;
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
