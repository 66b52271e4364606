/**
 * `decidekit/system-one`: the System One protocol. The client (retries, deadlines, secrets
 * scrubbed from every message) and its errors, the wire format's questions and their
 * parsers, endpoints, a server's health, models and metrics, and the reference server with
 * its fault injection and the protocol violations it can be told to commit.
 */
export type {
  ChoiceQuestion,
  NoulQuestion,
  Question,
  QuestionSet,
  QuestionType,
  ScoreQuestion,
} from '../core/question.js';
export { answersOf } from '../core/question.js';
export {
  parseWireQuestion,
  toWireQuestion,
  toWireQuestions,
  type ParsedWireQuestion,
  type WireQuestionOptions,
  type WireQuestionProblem,
} from '../core/question-rules.js';
export {
  createSystemOneClient,
  elapsedMsOf,
  failureOf,
  isCaseSpecificRejection,
  isRunStopping,
  type DecideResult,
  type SystemOneClient,
  type SystemOneClientOptions,
} from '../protocol/client/client.js';
export * from '../protocol/client/errors.js';
export { getHealth, listModels, readMetrics } from '../protocol/client/server-gets.js';
export { endpointFor, endpointIdentity, redactUrl } from '../protocol/wire/endpoint.js';
export type { EndpointIdentity } from '../core/endpoint-identity.js';
export { parseWireQuestions, renderWireQuestions, type WireQuestionsProblem } from '../protocol/wire/questions-json.js';
export { renderDecideRequest, type DecideRequest } from '../protocol/wire/decide-request.js';
export {
  parseDecideResponse,
  type DecideResponseParse,
  type ParsedDecideResponse,
} from '../protocol/wire/decide-response.js';
export { parseDecideRequest, type DecideRequestParse } from '../protocol/wire/parse-decide-request.js';
export { llamaCppMetricsOf, parsePrometheusText, type LlamaCppMetrics } from '../protocol/wire/prometheus-text.js';
export type { Failure, FailureKind, PredictedAnswers } from '../core/typed-decisions/case-result.js';
export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../protocol/server/server.js';
export type { FaultAction, FaultOptions } from '../protocol/server/faults.js';
export { VIOLATIONS, type Violation } from '../protocol/server/violations.js';
