import { DecidekitError, type ErrorCode } from '../../core/errors.js';
import { optionMention, words, type MessageWords } from '../../core/message-words.js';
import { networkReasonWords } from '../../core/network-error-words.js';
import type { FailureKind } from '../../core/typed-decisions/case-result.js';

/** Context every System One client error carries (secret-free: redacted URL, no key). */
export interface ClientErrorContext {
  /** The endpoint, redacted (no credentials, query or fragment). */
  readonly endpoint: string;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  /** Attempts made (1 + retries used). */
  readonly attempts?: number;
  /** Time spent on the failing attempt, ms; null when it never started. */
  readonly elapsedMs?: number | null;
  readonly [key: string]: unknown;
}

/**
 * Base of the client errors. `failureKind` is how a failed case records it; `stopsRun`
 * says the whole run must stop (the server cannot answer any case).
 */
export abstract class SystemOneError extends DecidekitError {
  abstract readonly failureKind: FailureKind;
  /** True when no further request should be sent (wrong endpoint, bad key, aborted). */
  readonly stopsRun: boolean = false;
  /** A short, secret-free message for a case's Failure ("HTTP 500: internal error"). */
  readonly shortMessage: string;
  override readonly context: ClientErrorContext;

  constructor(
    code: ErrorCode,
    message: string | MessageWords,
    shortMessage: string,
    context: ClientErrorContext,
    cause?: unknown,
  ) {
    super(code, message, cause === undefined ? { context: { ...context } } : { context: { ...context }, cause });
    this.context = context;
    this.shortMessage = shortMessage;
  }
}

/** 404 / 405 / 501: the server has no decision-model route or model. Stops the run. */
export class UnsupportedEndpointError extends SystemOneError {
  override readonly name = 'UnsupportedEndpointError';
  readonly failureKind = 'http' as const;
  override readonly stopsRun = true;
  constructor(context: ClientErrorContext & { status: number }, detail: string) {
    super(
      'unsupported_endpoint',
      `server does not serve decision models at ${context.endpoint} (HTTP ${context.status}${detail ? `: ${detail}` : ''}; check the base URL and that the server is a System One build such as llama.cpp b11361 or later)`,
      `HTTP ${context.status}: server does not serve decision models`,
      context,
    );
  }
}

/** 400 / 422: the server rejected the request itself. */
export class RequestRejectedError extends SystemOneError {
  override readonly name = 'RequestRejectedError';
  readonly failureKind = 'request_rejected' as const;
  /** First 200 characters of the response body (key scrubbed). */
  readonly bodyPreview: string;
  constructor(context: ClientErrorContext & { status: number }, bodyPreview: string) {
    super(
      'request_rejected',
      `request rejected: ${context.endpoint} answered HTTP ${context.status}: ${bodyPreview || '(empty body)'}`,
      `HTTP ${context.status}: ${bodyPreview || 'request rejected'}`,
      context,
    );
    this.bodyPreview = bodyPreview;
  }
}

/** 401 / 403: missing or wrong key. Stops the run. */
export class AuthError extends SystemOneError {
  override readonly name = 'AuthError';
  readonly failureKind = 'auth' as const;
  override readonly stopsRun = true;
  /** `sent`: what the request carried as `Authorization` (the key wins over a URL's user and password). */
  constructor(
    context: ClientErrorContext & { status: number },
    readonly sent: 'key' | 'user and password' | 'nothing',
  ) {
    const failed = `authentication failed: ${context.endpoint} answered HTTP ${context.status}`;
    super(
      'auth',
      sent === 'key'
        ? `${failed} (the API key was refused; check it)`
        : sent === 'user and password'
          ? `${failed} (the user and password in the base URL were refused; check them)`
          : words`${failed} (no API key was configured; pass ${optionMention('apiKey')} or set the environment variable, or give the server's user and password in ${optionMention('baseUrl')}: they are never stored, so give them again to resume)`,
      `HTTP ${context.status}: authentication failed`,
      context,
    );
  }
}

/** Any other non-2xx status (500, 502/503/504 after retries, ...). */
export class HttpError extends SystemOneError {
  override readonly name = 'HttpError';
  readonly failureKind = 'http' as const;
  readonly bodyPreview: string;
  constructor(context: ClientErrorContext & { status: number }, bodyPreview: string) {
    const tries = context.attempts !== undefined && context.attempts > 1 ? ` after ${context.attempts} attempts` : '';
    super(
      'http',
      `request failed: ${context.endpoint} answered HTTP ${context.status}${tries}${bodyPreview ? `: ${bodyPreview}` : ''}`,
      `HTTP ${context.status}${bodyPreview ? `: ${bodyPreview}` : ''}`,
      context,
    );
    this.bodyPreview = bodyPreview;
  }
}

/** 429 after every retry. */
export class RateLimitedError extends SystemOneError {
  override readonly name = 'RateLimitedError';
  readonly failureKind = 'rate_limited' as const;
  constructor(context: ClientErrorContext & { status: number }) {
    super(
      'rate_limited',
      words`rate limited: ${context.endpoint} answered HTTP 429 on all ${context.attempts ?? 1} attempts (lower ${optionMention('parallel')} or raise ${optionMention('retries')})`,
      `HTTP 429: rate limited after ${context.attempts ?? 1} attempts`,
      context,
    );
  }
}

/** The per-request timeout expired (never retried). */
export class TimeoutError extends SystemOneError {
  override readonly name = 'TimeoutError';
  readonly failureKind = 'timeout' as const;
  constructor(context: ClientErrorContext & { timeoutMs: number }) {
    super(
      'timeout',
      words`request timed out: no complete answer from ${context.endpoint} within ${context.timeoutMs} ms (raise ${optionMention('timeoutMs')})`,
      `timed out after ${context.timeoutMs} ms`,
      context,
    );
  }
}

/** The response arrived but breaks the wire format. */
export class MalformedResponseError extends SystemOneError {
  override readonly name = 'MalformedResponseError';
  readonly failureKind = 'malformed' as const;
  /** What was wrong, naming the question when there is one. */
  readonly reason: string;
  constructor(context: ClientErrorContext, reason: string) {
    super('malformed_response', `malformed response from ${context.endpoint}: ${reason}`, reason, context);
    this.reason = reason;
  }
}

/** The response body exceeded the cap; the read was aborted. */
export class ResponseTooLargeError extends SystemOneError {
  override readonly name = 'ResponseTooLargeError';
  readonly failureKind = 'too_large' as const;
  constructor(context: ClientErrorContext & { maxBodyBytes: number }) {
    super(
      'response_too_large',
      `response too large: ${context.endpoint} sent more than ${context.maxBodyBytes} bytes (raise maxBodyBytes if this is expected)`,
      `response body over ${context.maxBodyBytes} bytes`,
      context,
    );
  }
}

/** Connection refused, reset, DNS failure, socket closed mid-response. */
export class TransportError extends SystemOneError {
  override readonly name = 'TransportError';
  readonly failureKind = 'transport' as const;
  constructor(context: ClientErrorContext & { reason: string }, cause?: unknown) {
    super(
      'transport',
      `connection failed: ${context.endpoint} (${networkReasonWords(context.reason)})`,
      describeTransportReason(context.reason),
      context,
      cause,
    );
  }
}

/**
 * Nothing answers at the endpoint at all (connection refused, unknown host, TLS spoken to a
 * plain port): no case can be answered, so the run stops at once, as for a 404.
 */
export class UnreachableServerError extends SystemOneError {
  override readonly name = 'UnreachableServerError';
  readonly failureKind = 'transport' as const;
  override readonly stopsRun = true;
  constructor(context: ClientErrorContext & { reason: string; hostPort: string }, cause?: unknown) {
    super('unreachable', unreachableMessage(context), describeTransportReason(context.reason), context, cause);
  }
}

function unreachableMessage(c: { reason: string; hostPort: string; endpoint: string }): string | MessageWords {
  const r = c.reason;
  if (r.includes('ECONNREFUSED')) return `nothing is listening at ${c.hostPort}; is the server running?`;
  if (r.includes('ENOTFOUND') || r.includes('EAI_AGAIN'))
    return `host not found: ${c.hostPort.replace(/:\d+$/, '')}; check the base URL`;
  return words`cannot speak TLS to ${c.hostPort}: what answers there is not TLS; if the server is plain HTTP, use http:// in ${optionMention('baseUrl')}`;
}

/** The transport reasons that mean no server answers at that address at all. */
export function isUnreachable(reason: string): boolean {
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EPROTO|ERR_SSL_|wrong version number|packet length too long/.test(reason);
}

/** A 3xx answer: the server wants another URL. Stops the run with the place to use. */
export class RedirectError extends SystemOneError {
  override readonly name = 'RedirectError';
  readonly failureKind = 'http' as const;
  override readonly stopsRun = true;
  constructor(context: ClientErrorContext & { status: number; location: string | null }) {
    super(
      'redirect',
      context.location
        ? words`the server redirects to ${context.location} (HTTP ${context.status}); use ${context.location.replace(/\/v1\/systemone\/?$/, '')} as ${optionMention('baseUrl')}`
        : words`the server answered HTTP ${context.status} (a redirect without a Location); check ${optionMention('baseUrl')}`,
      `HTTP ${context.status}: redirect`,
      context,
    );
  }
}

/** The caller's AbortSignal fired (Ctrl+C). Stops the run; the case is not a failure. */
export class RequestAbortedError extends SystemOneError {
  override readonly name = 'RequestAbortedError';
  readonly failureKind = 'transport' as const;
  override readonly stopsRun = true;
  constructor(context: ClientErrorContext, cause?: unknown) {
    super(
      'aborted',
      `request aborted: ${context.endpoint} (the run was interrupted)`,
      'request aborted',
      context,
      cause,
    );
  }
}

/** A base URL that cannot be used (not http/https, unparsable). */
export class InvalidBaseUrlError extends DecidekitError {
  override readonly name = 'InvalidBaseUrlError';
  constructor(message: string) {
    super('invalid_base_url', message);
  }
}

/** A short, plain reason for a failed connection, for a case's error row. */
function describeTransportReason(reason: string): string {
  if (reason.includes('ECONNREFUSED')) return 'connection refused (is the server running?)';
  if (reason.includes('ENOTFOUND') || reason.includes('EAI_AGAIN')) return 'host not found';
  if (reason.includes('ECONNRESET') || reason.includes('UND_ERR_SOCKET') || reason.includes('other side closed'))
    return 'connection closed by the server before the answer';
  return networkReasonWords(reason);
}
