import { parseStrictJson } from '../../core/strict-json.js';
import type { QuestionSet } from '../../core/question.js';
import { isRecord, preview } from '../../core/json-value.js';
import { parseWireQuestions } from './questions-json.js';

/** A request the reference server accepted. */
export interface AcceptedDecideRequest {
  readonly model: string | undefined;
  readonly state: string | object;
  /** The wire `questions` value as sent (for the token estimate). */
  readonly rawQuestions: unknown;
  readonly questions: QuestionSet;
}

/** A rejection in llama.cpp's error envelope. */
export interface DecideRequestRejection {
  readonly status: 400 | 501;
  readonly type: 'invalid_request_error' | 'not_supported_error';
  readonly message: string;
}

export type DecideRequestParse =
  { readonly ok: true; readonly request: AcceptedDecideRequest } | ({ readonly ok: false } & DecideRequestRejection);

const invalid = (message: string): DecideRequestParse => ({
  ok: false,
  status: 400,
  type: 'invalid_request_error',
  message,
});

/**
 * Checks a `POST /v1/systemone` body the way llama.cpp does: invalid JSON, a non-object
 * body, a bad `model`, a missing or scalar `state`, and every question rule of
 * `parseWireQuestions` answer 400; `files`/`images` answer 501.
 */
export function parseDecideRequest(text: string): DecideRequestParse {
  const json = parseStrictJson(text);
  if (!json.ok)
    return invalid(json.problem === 'syntax' ? `invalid JSON body: ${json.message}` : `the body: ${json.message}`);
  const body = json.value;
  if (!isRecord(body))
    return invalid(`the request body must be a JSON object with "state" and "questions", got ${preview(body, 40)}`);
  if (body['files'] !== undefined || body['images'] !== undefined) {
    return {
      ok: false,
      status: 501,
      type: 'not_supported_error',
      message: `${body['files'] !== undefined ? 'files' : 'images'} are not supported: the reference server's models read text only`,
    };
  }
  const model = body['model'];
  if (model !== undefined && model !== null && typeof model !== 'string')
    return invalid(`"model" must be a string, got ${preview(model, 40)}`);
  const state = body['state'];
  if (state === undefined) return invalid('"state" is required (a string, or a JSON object or array)');
  if (typeof state !== 'string' && (typeof state !== 'object' || state === null)) {
    return invalid(`"state" must be a string, or a JSON object or array, got ${preview(state, 40)}`);
  }
  if (body['questions'] === undefined) return invalid('"questions" is required: an object of question id -> question');
  const parsed = parseWireQuestions(body['questions'], 'questions');
  if (!parsed.ok) {
    const shown = parsed.problems.slice(0, 3).map((p) => `${p.field}: ${p.message}`);
    const more = parsed.problems.length - shown.length;
    return invalid(`${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`);
  }
  return {
    ok: true,
    request: {
      model: typeof model === 'string' ? model : undefined,
      state,
      rawQuestions: body['questions'],
      questions: parsed.questions,
    },
  };
}
