/** `POST /v1/systemone`: a decide request answered by a built-in model, with the faults and violations asked for. */
import type http from 'node:http';
import { assertNever } from '../../../core/question.js';
import { hashString } from '../../../core/seeded-random.js';
import {
  parseDecideRequest,
  type AcceptedDecideRequest,
  type DecideRequestParse,
} from '../../wire/parse-decide-request.js';
import { actionApplies, drawFaults, targetedAction, type FaultAction, type MalformedVariant } from '../faults.js';
import { readBody } from '../request-body.js';
import { drip, oversize, refuseOversized, sendError, sendJson, sleep } from '../responses.js';
import { refusalStatus, type ServerContext } from '../server-context.js';
import { applyRobustnessViolations } from '../violations.js';
import { estimateInputTokens, renderResponse } from '../wire-answers.js';

/** Distinct request bodies remembered for per-body fault draws; the memory is cleared past this. */
const MAX_REMEMBERED_BODIES = 100_000;

const FORCED_MESSAGES: Readonly<Record<number, string>> = {
  404: 'File Not Found',
  405: 'Method Not Allowed',
  429: 'Too many requests (injected fault)',
  500: 'Internal server error (injected fault)',
  501: 'This model is not a decision model',
  503: 'Loading model',
};

/** The faults drawn for one request: an action (a status, a drop, ...), a malformed answer, added latency. */
interface RequestFaults {
  action: FaultAction | undefined;
  malformed: MalformedVariant | null;
  latencyMs: number;
}

export async function serveDecide(context: ServerContext, req: http.IncomingMessage, res: http.ServerResponse) {
  const { faults, metrics } = context;
  const text = await readBody(req, context.maxBodyBytes);
  if (text === null) {
    await refuseOversized(context, req, res);
    return;
  }
  if (faults.forceStatus !== undefined) {
    const s = faults.forceStatus;
    sendError(
      metrics,
      res,
      s,
      FORCED_MESSAGES[s] ?? `forced status ${s}`,
      s === 429 || s === 503 ? { 'retry-after': faults.retryAfter ?? '1' } : {},
    );
    return;
  }
  const parsed = parseDecideRequest(text);
  const drawn: RequestFaults = context.faulty
    ? faultsFor(context, text, parsed)
    : { action: undefined, malformed: null, latencyMs: 0 };
  if (drawn.action !== undefined && (await actOn(context, drawn, req, res))) return;
  if (!parsed.ok) {
    sendError(metrics, res, parsed.status === 400 ? refusalStatus(context, 400) : parsed.status, parsed.message);
    return;
  }
  const { violations } = context;
  if (violations?.on.has('stale-cache') && violations.last?.body === text) {
    sendJson(metrics, res, 200, violations.last.response);
    return;
  }
  await answer(context, text, parsed.request, drawn, res);
}

/** Draws this request's faults: a rule or target first, else the seeded rates (per body and occurrence). */
function faultsFor(context: ServerContext, text: string, parsed: DecideRequestParse): RequestFaults {
  const { faults, seen } = context;
  const key = hashString(text);
  const occurrence = seen.get(key) ?? 0;
  if (seen.size >= MAX_REMEMBERED_BODIES) seen.clear();
  seen.set(key, occurrence + 1);
  const draw = drawFaults(faults, text, occurrence);
  let action = parsed.ok && faults.rule ? faults.rule(parsed.request) : undefined;
  action ??= targetedAction(faults, text);
  if (action !== undefined && !actionApplies(action, occurrence)) action = undefined;
  let malformed: MalformedVariant | null = null;
  if (action === undefined) {
    if (draw.drop) action = { kind: 'drop' };
    else if (draw.fail) action = { kind: 'status', status: faults.failStatus ?? 500 };
    else if (draw.malformed !== null) malformed = draw.malformed;
  }
  return { action, malformed, latencyMs: draw.latencyMs };
}

/**
 * Carries out a fault action: true when it answered the request (a status, a dropped
 * connection, an oversized body); a malformed answer or a delay only change `drawn`.
 */
async function actOn(
  context: ServerContext,
  drawn: RequestFaults,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<boolean> {
  const action = drawn.action!;
  switch (action.kind) {
    case 'status': {
      const s = action.status;
      const retryAfter = action.retryAfter ?? (s === 429 || s === 503 ? (context.faults.retryAfter ?? '1') : undefined);
      sendError(
        context.metrics,
        res,
        s,
        FORCED_MESSAGES[s] ?? `injected status ${s}`,
        retryAfter === undefined ? {} : { 'retry-after': retryAfter },
      );
      return true;
    }
    case 'drop':
      req.socket.destroy();
      return true;
    case 'oversize':
      await oversize(context.metrics, res, action.bytes);
      return true;
    case 'malformed':
      drawn.malformed = action.variant ?? 'bad_sum';
      return false;
    case 'delay':
      drawn.latencyMs += action.ms;
      return false;
    default:
      return assertNever(action);
  }
}

/** The model's answer, in one of the server's slots, after the drawn latency. */
async function answer(
  context: ServerContext,
  text: string,
  request: AcceptedDecideRequest,
  drawn: RequestFaults,
  res: http.ServerResponse,
): Promise<void> {
  const { faults, metrics, violations } = context;
  const name = context.router ? (request.model ?? context.defaultModel) : context.defaultModel;
  const model = context.models.get(name);
  if (model === undefined) {
    sendError(
      metrics,
      res,
      400,
      `unknown model ${JSON.stringify(name)}: this server serves ${context.modelNames.join(', ')}`,
    );
    return;
  }
  await context.slots.acquire();
  try {
    await sleep(drawn.latencyMs);
    if (res.destroyed) return;
    const answered = model.answer(request.state, request.questions);
    const dists = violations === null ? answered : applyRobustnessViolations(violations, request.questions, answered);
    const inputTokens = estimateInputTokens(request.state, request.rawQuestions);
    metrics.onDecode(inputTokens);
    const body = renderResponse(name, request, dists, inputTokens, drawn.malformed, violations);
    if (violations?.on.has('stale-cache')) violations.last = { body: text, response: body };
    if ((faults.dripIntervalMs ?? 0) > 0)
      await drip(metrics, res, body, Math.max(1, faults.dripBytes ?? 16), faults.dripIntervalMs!);
    else sendJson(metrics, res, 200, body);
  } finally {
    context.slots.release();
  }
}
