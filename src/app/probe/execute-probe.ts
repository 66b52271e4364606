/**
 * Executing a probe plan: loads the dataset and draws the seeded case sample, starts the
 * embedded server when there is no base URL, then asks the server — one request at a
 * time, because the stale-cache probe depends on what came just before — the GET routes,
 * the invalid requests, and each case with its variants. Every valid answer is judged by
 * the conformance checks; the answers of a case's variants are paired with its baseline
 * answer for the robustness probes. The probe is saved in the store and `--out` reports
 * are written. It prints nothing: progress goes to a callback, the result is data.
 */
import { given } from '../../core/given.js';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import { stratifiedSample } from '../../core/stratified-sample.js';
import { writeTextFile } from '../write-text-file.js';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { optionMention as option, said, words, type MessageWords, type Said } from '../../core/message-words.js';
import type { WorkReporter } from '../work-reporter.js';
import type { ProbeProgress, ProbeStart } from '../../core/probe/probe-progress.js';
import {
  INVALID_REQUEST_KINDS,
  checkDecideExchange,
  checkHealth,
  checkModels,
  checkRejection,
  summarizeConformance,
  type JudgedItem,
} from '../../core/probe/conformance.js';
import { readDistributions } from '../../protocol/wire/decide-response.js';
import {
  ROBUSTNESS_PROBE_IDS,
  summarizeRobustness,
  type DecisionPair,
  type ProbePairs,
  type RobustnessProbeId,
} from '../../core/probe/robustness.js';
import type { ProbeConfig, ProbeRun } from '../../core/probe/run.js';
import {
  OPTION_PERMUTATIONS,
  UNRELATED_QUESTIONS,
  UNRELATED_STATE,
  aloneQuestion,
  describeInvalidRequest,
  invalidRequestBody,
  permutedOptions,
  renamedQuestions,
  reversedOptions,
  reversedQuestions,
  toOriginalOrder,
  type QuestionVariant,
} from '../../core/probe/variants.js';
import { answersOf, type QuestionSet } from '../../core/question.js';
import { createSystemOneClient, secretsOf, scrubSecrets, type SystemOneClient } from '../../protocol/client/client.js';
import { InvalidBaseUrlError, SystemOneError, TimeoutError } from '../../protocol/client/errors.js';
import { FAILURE_STREAK, createFailureStreak } from '../../core/failure-streak.js';
import { getText } from '../../protocol/client/server-gets.js';
import { startReferenceServer, type ReferenceServer } from '../../protocol/server/server.js';
import { renderDecideRequest } from '../../protocol/wire/decide-request.js';
import { healthUrlFor, modelsUrlFor, shownUrl } from '../../protocol/wire/endpoint.js';
import { loadBenchDataset } from '../../datasets/typed-decisions/load-bench-dataset.js';
import type { Store } from '../../store/store.js';
import { renderProbeHtml } from '../../reports/probe/probe-html.js';
import { renderProbeJson } from '../../reports/probe/probe-json.js';
import { renderProbeMarkdown } from '../../reports/probe/probe-markdown.js';
import { datasetSourceOf } from '../dataset-choice.js';
import { EMBEDDED_IDENTITY } from '../server-plan.js';
import { refuseUnusableOutDir } from '../out-dir.js';
import { wiringOf, type UseCaseWiring } from '../use-case-wiring.js';
import type { ProbePlan } from './plan-probe.js';
import { fileErrorWords } from '../../core/file-error-words.js';

export interface ExecuteProbeOptions extends Partial<UseCaseWiring> {
  /** Where `typed-decisions` is cached; needed only for that dataset. */
  readonly cacheDir?: string;
  /** Wall clock for the probe's creation time. */
  readonly clock?: () => Date;
  /** Write `<probe>.json`, `<probe>.md` and `<probe>.html` here. */
  readonly outDir?: string;
  /** What is about to be probed and how many requests it takes, then each case done. */
  readonly reporter?: ProbeReporter;
}

export type { ProbeProgress, ProbeStart };

/** How a running probe is reported: what it probes, then each case done. */
export type ProbeReporter = WorkReporter<ProbeStart, ProbeProgress>;

export type ProbeOutcome =
  | {
      readonly kind: 'finished';
      readonly run: ProbeRun;
      readonly saved: boolean;
      readonly written: readonly string[];
      readonly writeError: string | null;
    }
  /** The server cannot be probed at all (nothing listens, no decision-model route, a refused key). */
  | ({ readonly kind: 'stopped' } & Said);

type Asked = { readonly kind: 'body'; readonly body: unknown } | { readonly kind: 'failed'; readonly message: string };

/** Why the probe cannot go on; caught where the probe's outcome is made. */
class StopProbe extends Error {
  readonly why: Said;
  constructor(words: MessageWords) {
    const why = said(words);
    super(why.message);
    this.why = why;
  }
}

/** Runs a planned probe; the caller renders the outcome. */
export async function executeProbe(plan: ProbePlan, asked: ExecuteProbeOptions): Promise<ProbeOutcome> {
  const options = wiringOf(asked);
  if (options.outDir !== undefined) await refuseUnusableOutDir(options.outDir);
  const dataset = await loadBenchDataset(datasetSourceOf(plan.dataset, options.cacheDir));
  const cases = stratifiedSample(dataset.cases, plan.cases, plan.seed, (c) => c.workflow);
  // Each case with its variants, built once: counted for the start line, then sent.
  const work = cases.map((c) => ({
    case: c,
    variants: plan.scope === 'conformance' ? [] : variantsOf(c, plan.seed),
  }));
  const store: Store | null =
    plan.storePath === null ? null : (await import('../../store/open-store.js')).openStore(plan.storePath);
  let server: ReferenceServer | null = null;
  let client: SystemOneClient | null = null;
  try {
    if (plan.server.kind === 'embedded')
      server = await startReferenceServer({ host: '127.0.0.1', port: 0, model: plan.server.model });
    const baseUrl = plan.server.kind === 'remote' ? plan.server.baseUrl : server!.url;
    const apiKey = plan.server.kind === 'remote' ? plan.server.apiKey : undefined;
    try {
      client = createSystemOneClient({
        baseUrl,
        ...given({ apiKey }),
        timeoutMs: plan.timeoutMs,
        connections: 1,
      });
    } catch (err) {
      if (err instanceof InvalidBaseUrlError) throw new OptionError('baseUrl', words`${option('baseUrl')}: ${err}`);
      throw err;
    }
    const model = plan.server.model;
    const config: ProbeConfig = {
      toolVersion: options.toolVersion,
      endpoint: server ? EMBEDDED_IDENTITY : client.identity,
      model,
      dataset: dataset.info,
      caseIds: cases.map((c) => c.id),
      casesAsked: plan.cases,
      seed: plan.seed,
      scope: plan.scope,
      oversizedBodyBytes: plan.oversizedBodyBytes,
      resamples: plan.resamples,
    };
    const target = server
      ? `the built-in reference server (model ${plan.server.model}, ${server.url})`
      : shownUrl(client.endpoint);
    options.reporter?.onStart?.({
      target,
      cases: cases.length,
      casesAsked: plan.cases,
      casesInDataset: dataset.cases.length,
      dataset: dataset.info.synthetic ? 'the synthetic sample' : dataset.info.id,
      requests: plannedRequests(plan, work),
    });
    const createdAt = (options.clock?.() ?? new Date()).toISOString();
    const t0 = options.now();
    let found: Omit<ProbeRun, 'id' | 'createdAt' | 'config' | 'durationMs'>;
    try {
      found = await probe(plan, work, client, baseUrl, apiKey, options);
    } catch (err) {
      if (err instanceof StopProbe) return { kind: 'stopped', ...err.why };
      throw err;
    }
    const unsaved: Omit<ProbeRun, 'id'> = { createdAt, config, ...found, durationMs: options.now() - t0 };
    const id = store?.probes.save(unsaved) ?? `unsaved-probe-${createdAt.replace(/[-:.TZ]/g, '').slice(0, 14)}`;
    const run: ProbeRun = { id, ...unsaved };
    let written: string[] = [];
    let writeError: string | null = null;
    try {
      if (options.outDir !== undefined) written = await writeProbeReports(run, options.outDir);
    } catch (err) {
      writeError = err instanceof Error ? err.message : String(err);
    }
    return { kind: 'finished', run, saved: store !== null, written, writeError };
  } finally {
    await client?.close();
    store?.close();
    await server?.close();
  }
}

/** A case with the variants the robustness probes send of it (none when they do not run). */
interface CaseWork {
  readonly case: TypedDecisionsCase;
  readonly variants: readonly ProbeVariant[];
}

/** A variant of a case's questions, paired with the probe it feeds. */
interface ProbeVariant {
  readonly probe: RobustnessProbeId;
  readonly variant: QuestionVariant;
}

/** Requests a plan sends, for the start line: per case its baseline, and with robustness three repeats and its variants. */
function plannedRequests(plan: ProbePlan, work: readonly CaseWork[]): number {
  let n = plan.scope === 'robustness' ? 0 : 2 + INVALID_REQUEST_KINDS.length;
  for (const w of work) n += plan.scope === 'conformance' ? 1 : 1 + 3 + w.variants.length;
  return n;
}

/** The variants of a case, each paired with the probe it feeds. */
function variantsOf(c: TypedDecisionsCase, seed: number): ProbeVariant[] {
  const qs = c.questions;
  const out: ProbeVariant[] = [];
  if (qs.length > 1) out.push({ probe: 'question-order', variant: reversedQuestions(qs) });
  out.push({ probe: 'question-names', variant: renamedQuestions(qs) });
  if (qs.length > 1) qs.forEach((_, i) => out.push({ probe: 'isolation', variant: aloneQuestion(qs, i) }));
  const reversed = reversedOptions(qs);
  if (reversed !== null) out.push({ probe: 'option-order', variant: reversed });
  for (let k = 0; k < OPTION_PERMUTATIONS; k++) {
    const permuted = permutedOptions(qs, c.id, seed, k);
    if (permuted !== null) out.push({ probe: 'option-order', variant: permuted });
  }
  return out;
}

/** Pairs of decisions kept for one robustness probe, and what was lost to failed requests or unreadable answers. */
interface PairBucket {
  readonly pairs: DecisionPair[];
  readonly lost: { requests: number; decisions: number };
}

/**
 * One probe's traffic: every request it sends is counted, every decide exchange judged by the
 * conformance checks (when they run), and the robustness pairs gathered by probe.
 */
class ProbeExchanges {
  readonly judged: JudgedItem[] = [];
  readonly buckets = new Map<RobustnessProbeId, PairBucket>();
  requests = 0;
  private readonly secrets: readonly string[];
  // The first requests, while every one of them times out (bench's stop rule, on timeouts).
  private readonly timeouts = createFailureStreak(FAILURE_STREAK);

  constructor(
    private readonly client: SystemOneClient,
    private readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    private readonly conformance: boolean,
    private readonly signal: AbortSignal,
    private readonly timeoutMs: number,
  ) {
    this.secrets = secretsOf(new URL(baseUrl), apiKey);
  }

  /** Follows the first requests while they all time out; stops the probe when enough did. */
  private noteTimeout(timedOut: boolean): void {
    if (!timedOut) return this.timeouts.broken();
    if (this.timeouts.failed('timeout'))
      throw new StopProbe(
        words`the first ${FAILURE_STREAK} requests all timed out (no answer within ${this.timeoutMs / 1000} s each): the server accepts connections but does not answer`,
      );
  }

  /** Sends one decide request; a server that cannot be asked at all stops the probe. */
  async ask(body: string, questions: QuestionSet): Promise<Asked> {
    this.requests++;
    let asked: Asked;
    try {
      asked = { kind: 'body', body: (await this.client.send(body, this.signal)).body };
      this.noteTimeout(false);
    } catch (err) {
      if (!(err instanceof SystemOneError)) throw err;
      if (err.stopsRun || err.code === 'unreachable' || err.code === 'redirect' || err.code === 'aborted')
        throw new StopProbe(words`${err}`);
      this.noteTimeout(err.code === 'timeout');
      asked = { kind: 'failed', message: err.shortMessage };
    }
    if (this.conformance)
      for (const result of checkDecideExchange(questions, asked)) this.judged.push({ request: shown(body), result });
    return asked;
  }

  /** The GET routes beside the decide route, then each invalid request, judged. */
  async checkRoutes(plan: ProbePlan): Promise<void> {
    this.judged.push({ request: 'GET /health', result: checkHealth(await this.get(healthUrlFor(this.baseUrl))) });
    this.judged.push({ request: 'GET /v1/models', result: checkModels(await this.get(modelsUrlFor(this.baseUrl))) });
    for (const kind of INVALID_REQUEST_KINDS) {
      const body = invalidRequestBody(kind, plan.server.model, plan.oversizedBodyBytes);
      this.requests++;
      let outcome: Parameters<typeof checkRejection>[1];
      try {
        outcome = { kind: 'response', ...(await this.client.post(body, this.signal)) };
        this.noteTimeout(false);
      } catch (err) {
        if (!(err instanceof SystemOneError)) throw err;
        if (err.code === 'unreachable' || err.code === 'aborted') throw new StopProbe(words`${err}`);
        this.noteTimeout(err.code === 'timeout');
        outcome = { kind: 'failed', message: err.shortMessage };
      }
      this.judged.push({ request: describeInvalidRequest(kind, body), result: checkRejection(kind, outcome) });
    }
  }

  private async get(url: string) {
    this.requests++;
    let r: { status: number; text: string };
    try {
      r = await getText(url, { ...given({ apiKey: this.apiKey }), timeoutMs: this.timeoutMs, signal: this.signal });
    } catch (err) {
      this.noteTimeout(err instanceof TimeoutError);
      // No answer to a GET is that check's failure; a server that answers nothing at all
      // stops the probe at its first POST, with the client's message.
      return { kind: 'failed' as const, message: err instanceof Error ? err.message : String(err) };
    }
    this.noteTimeout(false);
    return { kind: 'response' as const, status: r.status, text: scrubSecrets(r.text, this.secrets) };
  }

  /** Pairs each decision of a variant's answer with the baseline's decision of the same question. */
  record(
    id: RobustnessProbeId,
    c: TypedDecisionsCase,
    before: ReturnType<typeof readDistributions> | null,
    variant: QuestionVariant,
    answer: Asked,
  ): void {
    const b = this.bucket(id);
    if (answer.kind === 'failed') b.lost.requests++;
    const after = answer.kind === 'body' ? readDistributions(answer.body, variant.questions) : null;
    variant.questions.forEach((_, j) => {
      // Option-order variants compare only the questions whose options moved.
      if (id === 'option-order' && variant.order[j] === null) return;
      const i = variant.source[j]!;
      const [questionId, q] = c.questions[i]!;
      const d0 = before?.[i] ?? null;
      const d1 = after?.[j] ?? null;
      if (d0 === null || d1 === null) {
        b.lost.decisions++;
        return;
      }
      b.pairs.push({
        caseId: c.id,
        questionId,
        type: q.type,
        answers: answersOf(q),
        goldIndex: c.gold[i]!.labelIndex,
        variant: variant.label,
        before: d0,
        after: toOriginalOrder(d1, variant.order[j] ?? null),
      });
    });
  }

  private bucket(id: RobustnessProbeId): PairBucket {
    let b = this.buckets.get(id);
    if (b === undefined) this.buckets.set(id, (b = { pairs: [], lost: { requests: 0, decisions: 0 } }));
    return b;
  }
}

/** A request as the conformance findings show it: cut at 2,000 characters. */
function shown(body: string): string {
  return body.length > 2000 ? `${body.slice(0, 1999)}…` : body;
}

async function probe(
  plan: ProbePlan,
  work: readonly CaseWork[],
  client: SystemOneClient,
  baseUrl: string,
  apiKey: string | undefined,
  options: ExecuteProbeOptions & UseCaseWiring,
): Promise<Omit<ProbeRun, 'id' | 'createdAt' | 'config' | 'durationMs'>> {
  const model = plan.server.model;
  const conformance = plan.scope !== 'robustness';
  const robustness = plan.scope !== 'conformance';
  const exchanges = new ProbeExchanges(client, baseUrl, apiKey, conformance, options.signal, plan.timeoutMs);
  const bodyOf = (state: string | object, questions: QuestionSet) =>
    renderDecideRequest({ ...(model === null ? {} : { model }), state, questions });
  if (conformance) await exchanges.checkRoutes(plan);
  const unrelated = bodyOf(UNRELATED_STATE, UNRELATED_QUESTIONS);
  let done = 0;
  for (const { case: c, variants } of work) {
    const body = bodyOf(c.state, c.questions);
    const baseline = await exchanges.ask(body, c.questions);
    if (robustness) {
      const before = baseline.kind === 'body' ? readDistributions(baseline.body, c.questions) : null;
      const same = repeatedVariant(c.questions);
      exchanges.record('determinism', c, before, same, await exchanges.ask(body, c.questions));
      await exchanges.ask(unrelated, UNRELATED_QUESTIONS);
      const afterUnrelated = await exchanges.ask(body, c.questions);
      exchanges.record(
        'stale-cache',
        c,
        before,
        { ...same, label: 'repeated after an unrelated request' },
        afterUnrelated,
      );
      for (const { probe: id, variant } of variants)
        exchanges.record(
          id,
          c,
          before,
          variant,
          await exchanges.ask(bodyOf(c.state, variant.questions), variant.questions),
        );
    }
    options.reporter?.onCase?.({ casesDone: ++done, casesTotal: work.length });
  }
  const byProbe: Partial<Record<RobustnessProbeId, ProbePairs>> = {};
  if (robustness)
    for (const id of ROBUSTNESS_PROBE_IDS)
      byProbe[id] = exchanges.buckets.get(id) ?? { pairs: [], lost: { requests: 0, decisions: 0 } };
  return {
    conformance: conformance ? summarizeConformance(exchanges.judged) : null,
    robustness: robustness ? summarizeRobustness(byProbe, { seed: plan.seed, resamples: plan.resamples }) : null,
    requests: exchanges.requests,
  };
}

/** The same questions asked again as they were: the determinism and stale-cache probes' variant. */
function repeatedVariant(questions: QuestionSet): QuestionVariant {
  return {
    label: 'repeated',
    questions,
    source: questions.map((_, i) => i),
    order: questions.map(() => null),
  };
}

/** Writes `<probe>.json`, `<probe>.md` and `<probe>.html` into `dir`. */
export async function writeProbeReports(run: ProbeRun, dir: string): Promise<string[]> {
  const files = [
    { path: join(dir, `${run.id}.json`), text: () => renderProbeJson(run) },
    { path: join(dir, `${run.id}.md`), text: () => renderProbeMarkdown(run) },
    { path: join(dir, `${run.id}.html`), text: () => renderProbeHtml(run) },
  ];
  const failure = (err: unknown): string =>
    `cannot write the probe reports into ${dir} (${fileErrorWords(err, 'write failed')})`;
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new DecidekitError('write_failed', failure(err), { cause: err });
  }
  for (const f of files) await writeTextFile(f.path, f.text(), 'the probe report', { failure });
  return files.map((f) => f.path);
}
