import type { QuestionSet } from '../../core/question.js';
import { createSeededRandom, hashString } from '../../core/seeded-random.js';

/** What the server does instead of (or before) answering one request. */
export type FaultAction =
  /** Answer this status with a llama.cpp-style error body; `times` limits it to the first N sends of the same body. */
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string; readonly times?: number }
  /** Answer 200 with a body that breaks the wire format. */
  | { readonly kind: 'malformed'; readonly variant?: MalformedVariant; readonly times?: number }
  /** Destroy the connection without a response. */
  | { readonly kind: 'drop'; readonly times?: number }
  /** Wait this long before answering (on top of the global latency). */
  | { readonly kind: 'delay'; readonly ms: number; readonly times?: number }
  /** Answer 200 with a body of `bytes` bytes, streamed in chunks. */
  | { readonly kind: 'oversize'; readonly bytes: number; readonly times?: number };

export const MALFORMED_VARIANTS = [
  'not_json',
  'not_object',
  'no_answers',
  'missing_answer',
  'bad_sum',
  'out_of_range',
  'non_number',
] as const;
export type MalformedVariant = (typeof MALFORMED_VARIANTS)[number];

/** Seeded fault injection for the reference server (all rates in [0, 1]). */
export interface FaultOptions {
  /** Seed of every random draw (default 1). */
  readonly seed?: number;
  /** Added latency per answered request, ms (default 0). */
  readonly latencyMs?: number;
  /** Extra latency drawn uniformly from [0, jitterMs) (default 0). */
  readonly jitterMs?: number;
  /** Share of requests answered with `failStatus` (default 0). */
  readonly failRate?: number;
  /** Status of a random failure (default 500); 429 and 503 carry `Retry-After`. */
  readonly failStatus?: number;
  /** `Retry-After` sent with 429/503 failures (default "1"). */
  readonly retryAfter?: string;
  /** Share of requests answered 200 with a malformed body (default 0). */
  readonly malformedRate?: number;
  /** Share of requests whose connection is destroyed without a response (default 0). */
  readonly dropRate?: number;
  /** Answer every decide request with this status (404, 501, ...). */
  readonly forceStatus?: number;
  /** Slow-drip: send each response body in chunks of this many bytes ... */
  readonly dripBytes?: number;
  /** ... with this pause between chunks, ms (0 = no drip). */
  readonly dripIntervalMs?: number;
  /** Deterministic targeting: when the raw request body contains the key (e.g. a case id), apply the action. */
  readonly byCase?: Readonly<Record<string, FaultAction>>;
  /** Deterministic targeting by predicate over the parsed request; wins over `byCase`. */
  readonly rule?: (request: {
    readonly state: string | object;
    readonly questions: QuestionSet;
    readonly model: string | undefined;
  }) => FaultAction | undefined;
}

/** The random part of one request's fault plan. */
export interface FaultDraw {
  readonly drop: boolean;
  readonly fail: boolean;
  readonly malformed: MalformedVariant | null;
  readonly latencyMs: number;
}

/**
 * Draws one request's faults from a PRNG seeded by (seed, request body, how many times this
 * exact body was seen): the same request gets the same fate whatever the concurrency or
 * arrival order, and a retry of it draws afresh.
 */
export function drawFaults(options: FaultOptions, bodyText: string, occurrence: number): FaultDraw {
  const random = createSeededRandom(
    hashString(bodyText, (options.seed ?? 1) >>> 0) ^ Math.imul(occurrence + 1, 0x9e3779b9),
  );
  const rDrop = random();
  const rFail = random();
  const rMalformed = random();
  const rVariant = random();
  const rJitter = random();
  return {
    drop: rDrop < (options.dropRate ?? 0),
    fail: rFail < (options.failRate ?? 0),
    malformed:
      rMalformed < (options.malformedRate ?? 0)
        ? MALFORMED_VARIANTS[Math.floor(rVariant * MALFORMED_VARIANTS.length)]!
        : null,
    latencyMs: (options.latencyMs ?? 0) + rJitter * (options.jitterMs ?? 0),
  };
}

/** True when an action with `times` has been used up for this body. */
export function actionApplies(action: FaultAction, occurrence: number): boolean {
  return action.times === undefined || occurrence < action.times;
}

/** The targeted action for a raw body, by `byCase` key (first key found, in key order). */
export function targetedAction(options: FaultOptions, bodyText: string): FaultAction | undefined {
  if (options.byCase === undefined) return undefined;
  for (const key of Object.keys(options.byCase)) if (bodyText.includes(key)) return options.byCase[key];
  return undefined;
}

/** Whether any fault option is set (the CLI prints a warning line then). */
export function hasFaults(options: FaultOptions | undefined): boolean {
  if (options === undefined) return false;
  return Boolean(
    options.latencyMs ||
    options.jitterMs ||
    options.failRate ||
    options.malformedRate ||
    options.dropRate ||
    options.forceStatus ||
    options.dripIntervalMs ||
    options.byCase ||
    options.rule,
  );
}
