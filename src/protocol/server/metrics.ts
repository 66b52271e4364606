/**
 * The reference server's llama.cpp-style counters, kept truthfully: one "decode" is one
 * answered request (a decision model answers a whole request in one forward pass).
 */
export interface ServerMetricsSnapshot {
  /** Sum of `usage.input_tokens` of answered requests (`llamacpp:prompt_tokens_total`). */
  readonly promptTokensTotal: number;
  /** Answered requests (`llamacpp:n_decode_total`). */
  readonly decodeTotal: number;
  /** Requests holding a slot now (`llamacpp:requests_processing`). */
  readonly requestsProcessing: number;
  /** Requests waiting for a slot now (`llamacpp:requests_deferred`). */
  readonly requestsDeferred: number;
  /** Mean busy slots at each decode; 0 before the first (`llamacpp:n_busy_slots_per_decode`). */
  readonly busySlotsPerDecode: number;
  /** Every request the server received, any route, any outcome. */
  readonly requestsTotal: number;
  /** Responses by HTTP status (dropped connections are not counted here). */
  readonly responsesByStatus: Readonly<Record<string, number>>;
}

export interface ServerMetrics {
  snapshot(): ServerMetricsSnapshot;
  onRequest(): void;
  onResponse(status: number): void;
  onDecode(promptTokens: number): void;
  setSlots(processing: number, deferred: number): void;
}

export function createServerMetrics(): ServerMetrics {
  let promptTokensTotal = 0;
  let decodeTotal = 0;
  let busySum = 0;
  let processing = 0;
  let deferred = 0;
  let requestsTotal = 0;
  const byStatus: Record<string, number> = {};
  return {
    snapshot: () => ({
      promptTokensTotal,
      decodeTotal,
      requestsProcessing: processing,
      requestsDeferred: deferred,
      busySlotsPerDecode: decodeTotal === 0 ? 0 : busySum / decodeTotal,
      requestsTotal,
      responsesByStatus: { ...byStatus },
    }),
    onRequest: () => void requestsTotal++,
    onResponse: (status) => void (byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1),
    onDecode: (promptTokens) => {
      promptTokensTotal += promptTokens;
      decodeTotal++;
      busySum += processing;
    },
    setSlots: (p, d) => {
      processing = p;
      deferred = d;
    },
  };
}

/** Prometheus text exposition of the five llama.cpp series. */
export function renderPrometheusText(s: ServerMetricsSnapshot): string {
  const series: Array<[string, 'counter' | 'gauge', string, number]> = [
    ['llamacpp:prompt_tokens_total', 'counter', 'Number of prompt tokens processed.', s.promptTokensTotal],
    ['llamacpp:n_decode_total', 'counter', 'Total number of decode calls (one per answered request).', s.decodeTotal],
    ['llamacpp:n_busy_slots_per_decode', 'gauge', 'Average number of busy slots per decode.', s.busySlotsPerDecode],
    ['llamacpp:requests_processing', 'gauge', 'Number of requests processing.', s.requestsProcessing],
    ['llamacpp:requests_deferred', 'gauge', 'Number of requests deferred.', s.requestsDeferred],
  ];
  return series
    .map(([name, type, help, value]) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${value}\n`)
    .join('');
}
