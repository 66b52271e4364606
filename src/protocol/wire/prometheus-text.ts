/** One sample of a Prometheus text exposition. */
export interface PrometheusSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The five llama.cpp series a monitor reads; null when the server does not export one. */
export interface LlamaCppMetrics {
  readonly promptTokensTotal: number | null;
  readonly decodeTotal: number | null;
  readonly requestsProcessing: number | null;
  readonly requestsDeferred: number | null;
  readonly busySlotsPerDecode: number | null;
  /** Both counters present: the server is llama.cpp-like. */
  readonly llamaCppLike: boolean;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?\s*$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"/g;

function parseValue(text: string): number | null {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const n = Number(text);
  return Number.isNaN(n) ? null : n;
}

/**
 * Parses Prometheus text format (version 0.0.4): comments and blank lines skipped, lines
 * that do not parse are ignored (a monitor must not die on one odd line).
 */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const out: PrometheusSample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const value = parseValue(m[4]!);
    if (value === null) continue;
    const labels: Record<string, string> = {};
    if (m[3] !== undefined) {
      for (const l of m[3].matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    }
    out.push({ name: m[1]!, labels, value });
  }
  return out;
}

/** Picks the llama.cpp series out of parsed samples (the first sample of each, finite values only). */
export function llamaCppMetricsOf(samples: readonly PrometheusSample[]): LlamaCppMetrics {
  const first = (name: string): number | null => {
    const s = samples.find((x) => x.name === name);
    return s !== undefined && Number.isFinite(s.value) ? s.value : null;
  };
  const promptTokensTotal = first('llamacpp:prompt_tokens_total');
  const decodeTotal = first('llamacpp:n_decode_total');
  return {
    promptTokensTotal,
    decodeTotal,
    requestsProcessing: first('llamacpp:requests_processing'),
    requestsDeferred: first('llamacpp:requests_deferred'),
    busySlotsPerDecode: first('llamacpp:n_busy_slots_per_decode'),
    llamaCppLike: promptTokensTotal !== null && decodeTotal !== null,
  };
}
