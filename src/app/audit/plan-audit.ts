/**
 * Planning an audit, purely: what the user asked plus (on resume) the stored audit become
 * one plan — files, check set, judge endpoint and model, order swap — and resuming is
 * refused when the judge endpoint, model or set differ, or a selected check's version
 * changed, naming the difference.
 */
import { given } from '../../core/given.js';
import type { EndpointIdentity } from '../../core/endpoint-identity.js';
import type { AuditCheck, CheckSet } from '../../core/audit/check.js';
import type { AuditRun } from '../../core/audit/run.js';
import { OptionError } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { InvalidBaseUrlError } from '../../protocol/client/errors.js';
import { refuseUnusableBaseUrl } from '../server-plan.js';
import { BUILT_IN_MODEL_NAMES } from '../../protocol/server/models/index.js';
import {
  baseUrlOf,
  describeEndpoint,
  endpointFor,
  endpointIdentity,
  withoutCredentials,
} from '../../protocol/wire/endpoint.js';
import { auditResumeCommand, credentialsAgainFlags } from '../../core/command-hints.js';

/** What a user asks of an audit (the CLI's options, or a library caller's). */
export interface AuditRequest {
  /** Absolute path; absent: the bundled sample (or, on resume, the audit's own file). */
  readonly transcriptsPath?: string;
  readonly checksPath?: string;
  /** Default `recommended` (on resume: the audit's own). */
  readonly set?: CheckSet;
  /** Absent: the built-in reference server judges. */
  readonly baseUrl?: string;
  /** Sent as `model`; with the built-in server, the built-in model (default `judge`). */
  readonly model?: string;
  /** The judge's own key (never the benchmark's); sent only to a remote judge (the built-in one takes none). */
  readonly judgeApiKey?: string;
  /** Ask every audit again with the options reversed. */
  readonly orderProbe?: boolean;
  /** The whole judge request, retries included (default 60 s, as bench's per-request timeout). */
  readonly timeoutMs?: number;
  readonly label?: string;
  /** A stored audit's id (or prefix) to complete. */
  readonly resume?: string;
  /** The run store; null keeps nothing. */
  readonly storePath: string | null;
}

/** `sample` is the bundled data/audits/ sample. */
export type AuditFile = { readonly kind: 'sample' } | { readonly kind: 'path'; readonly path: string };

export type JudgePlan =
  | { readonly kind: 'embedded'; readonly model: string }
  | { readonly kind: 'remote'; readonly baseUrl: string; readonly model: string | null; readonly apiKey?: string };

export interface AuditPlan {
  readonly transcripts: AuditFile;
  readonly checks: AuditFile;
  readonly set: CheckSet;
  readonly judge: JudgePlan;
  readonly judgeEndpoint: EndpointIdentity;
  readonly orderProbe: boolean;
  /** The whole judge request, retries included. */
  readonly timeoutMs: number;
  readonly label: string | null;
  readonly storePath: string | null;
  /** The audit being completed, read before anything started. */
  readonly resume: AuditRun | null;
}

export const DEFAULT_JUDGE_MODEL = 'judge';
/** The whole judge request, retries included, unless the request says otherwise (bench's default timeout). */
export const JUDGE_DEADLINE_MS = 60_000;
/** A request body over this many UTF-8 bytes is not sent (and never truncated). */
export const MAX_JUDGE_INPUT_BYTES = 6_000;

/** The stored identity of the in-process reference server (its port changes every run). */
export const EMBEDDED_JUDGE: EndpointIdentity = {
  scheme: 'embedded',
  host: 'reference-server',
  port: 0,
  path: '/v1/systemone',
};

export function planAudit(request: AuditRequest, stored: AuditRun | null): AuditPlan {
  if (request.resume !== undefined && request.storePath === null)
    throw new OptionError('resume', words`${option('resume')} needs the run store (drop ${option('storePath: null')})`);
  const old = stored?.config ?? null;
  const fileOf = (given: string | undefined, kept: string | undefined): AuditFile => {
    const path = given ?? (kept === undefined || kept === 'sample' ? undefined : kept);
    return path === undefined ? { kind: 'sample' } : { kind: 'path', path };
  };
  const set = request.set ?? old?.set ?? 'recommended';
  let judge: JudgePlan;
  let judgeEndpoint: EndpointIdentity;
  // A resumed audit asks the judge it was judged by: its stored endpoint is a base URL again
  // (as bench --resume does), so the printed resume command works as it stands.
  const baseUrl =
    request.baseUrl ??
    (old !== null && old.judgeEndpoint.scheme !== 'embedded' ? baseUrlOf(old.judgeEndpoint) : undefined);
  if (baseUrl === undefined) {
    judge = { kind: 'embedded', model: request.model ?? old?.judgeModel ?? DEFAULT_JUDGE_MODEL };
    if (!(BUILT_IN_MODEL_NAMES as readonly string[]).includes(judge.model))
      throw new OptionError(
        'model',
        words`${option('model')} ${JSON.stringify(judge.model)} is not a built-in model (known: ${BUILT_IN_MODEL_NAMES.join(', ')}; the judge is "judge")`,
      );
    judgeEndpoint = EMBEDDED_JUDGE;
  } else {
    judgeEndpoint = judgeEndpointOf(baseUrl);
    if (old?.judgeKeyUsed === true && request.judgeApiKey === undefined)
      throw new OptionError(
        'resume',
        words`cannot resume ${stored!.id}: its judge was sent a key, and keys are never stored: give the judge key again (DECIDEKIT_JUDGE_API_KEY)`,
      );
    if (
      old?.judgeUserAndPasswordUsed === true &&
      request.judgeApiKey === undefined &&
      withoutCredentials(baseUrl).basicAuthorization === null
    )
      throw new OptionError(
        'baseUrl',
        words`cannot resume ${stored!.id}: its judge was sent the user and password of its base URL, and they are never stored: give them again: ${auditResumeCommand(stored!.id, request.storePath)}${credentialsAgainFlags('user and password', baseUrlOf(old.judgeEndpoint))}`,
      );
    judge = {
      kind: 'remote',
      baseUrl,
      model: request.model ?? old?.judgeModel ?? null,
      ...given({ apiKey: request.judgeApiKey }),
    };
  }
  const orderProbe = request.orderProbe === true || old?.orderProbe === true;
  if (old !== null) {
    const differences: string[] = [];
    if (!sameEndpoint(old.judgeEndpoint, judgeEndpoint))
      differences.push(
        `judge endpoint ${describeEndpoint(judgeEndpoint)} (the audit used ${describeEndpoint(old.judgeEndpoint)})`,
      );
    if ((judge.model ?? null) !== old.judgeModel)
      differences.push(
        `judge model ${judge.model ?? '(server default)'} (the audit used ${old.judgeModel ?? '(server default)'})`,
      );
    if (set !== old.set) differences.push(`check set ${set} (the audit used ${old.set})`);
    if (differences.length > 0)
      throw new OptionError(
        'resume',
        words`cannot resume ${stored!.id}: ${differences.join('; ')}; start a new audit instead`,
      );
  }
  return {
    transcripts: fileOf(request.transcriptsPath, old?.transcriptsFile),
    checks: fileOf(request.checksPath, old?.checksFile),
    set,
    judge,
    judgeEndpoint,
    orderProbe,
    timeoutMs: request.timeoutMs ?? JUDGE_DEADLINE_MS,
    label: request.label ?? stored?.label ?? null,
    storePath: request.storePath,
    resume: stored,
  };
}

/**
 * Refuses to complete an audit when one of its checks now has another version (a code or
 * file update that bumps `payment-claim-v1` to `-v2`): verdicts of two versions never mix.
 */
export function refuseChangedCheckVersions(stored: AuditRun, selected: readonly AuditCheck[]): void {
  const changed: string[] = [];
  for (const c of selected) {
    const before = stored.config.checks.find((s) => s.id !== c.id && s.id.replace(/-v[0-9]+$/, '') === c.base);
    if (before !== undefined) changed.push(`${before.id} is now ${c.id}`);
  }
  if (changed.length > 0)
    throw new OptionError(
      'resume',
      words`cannot resume ${stored.id}: a check's version changed (${changed.join('; ')}); start a new audit instead`,
    );
}

/**
 * Judge URLs: http(s) only, without a query or fragment. A user and password are allowed as
 * for every command (the client sends them as Basic); the identity never holds them.
 */
export function judgeEndpointOf(baseUrl: string): EndpointIdentity {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new OptionError('baseUrl', words`${option('baseUrl')}: not a URL (expected e.g. http://127.0.0.1:8084)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OptionError(
      'baseUrl',
      words`${option('baseUrl')}: uses ${url.protocol.replace(/:$/, '')} (a judge URL is http or https)`,
    );
  refuseUnusableBaseUrl(baseUrl);
  try {
    return endpointIdentity(endpointFor(baseUrl));
  } catch (err) {
    if (err instanceof InvalidBaseUrlError) throw new OptionError('baseUrl', words`${option('baseUrl')}: ${err}`);
    throw err;
  }
}

function sameEndpoint(a: EndpointIdentity, b: EndpointIdentity): boolean {
  return a.scheme === b.scheme && a.host === b.host && a.port === b.port && a.path === b.path;
}
