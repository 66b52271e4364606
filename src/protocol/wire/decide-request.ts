import type { QuestionSet } from '../../core/question.js';
import { renderWireQuestions } from './questions-json.js';

export interface DecideRequest {
  /** Sent when known; a router-mode server picks its model by it. */
  readonly model?: string | undefined;
  /** A string, or a JSON object/array sent as JSON (never re-stringified). */
  readonly state: string | object;
  readonly questions: QuestionSet;
}

/** The `POST /v1/systemone` body: `{model?, state, questions}` with questions in the given order. */
export function renderDecideRequest(request: DecideRequest): string {
  const model = request.model === undefined ? '' : `"model":${JSON.stringify(request.model)},`;
  const state = JSON.stringify(request.state);
  if (state === undefined) throw new TypeError('state must be a string or a JSON object/array');
  return `{${model}"state":${state},"questions":${renderWireQuestions(request.questions)}}`;
}
