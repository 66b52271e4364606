import { describe, expect, it } from 'vitest';
import { llamaCppMetricsOf, parsePrometheusText } from './prometheus-text.js';
import { renderPrometheusText } from '../server/metrics.js';

const LLAMA = `# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.
# TYPE llamacpp:prompt_tokens_total counter
llamacpp:prompt_tokens_total 4821
# TYPE llamacpp:n_decode_total counter
llamacpp:n_decode_total 17
llamacpp:requests_processing 2
llamacpp:requests_deferred 0
llamacpp:n_busy_slots_per_decode 1.5
http_requests_total{method="post",code="200"} 1027 1395066363000
weird line without value
`;

describe('parsePrometheusText', () => {
  it('reads samples with labels and timestamps and skips comments and odd lines', () => {
    const samples = parsePrometheusText(LLAMA);
    expect(samples).toHaveLength(6);
    expect(samples[5]).toEqual({ name: 'http_requests_total', labels: { method: 'post', code: '200' }, value: 1027 });
  });

  it('reads special values and escaped label values', () => {
    const [a, b] = parsePrometheusText('x{path="a\\"b"} +Inf\ny NaN\r\n');
    expect(a).toEqual({ name: 'x', labels: { path: 'a"b' }, value: Infinity });
    expect(Number.isNaN(b!.value)).toBe(true);
  });
});

describe('llamaCppMetricsOf', () => {
  it('picks the five llama.cpp series and calls the server llama.cpp-like', () => {
    expect(llamaCppMetricsOf(parsePrometheusText(LLAMA))).toEqual({
      promptTokensTotal: 4821,
      decodeTotal: 17,
      requestsProcessing: 2,
      requestsDeferred: 0,
      busySlotsPerDecode: 1.5,
      llamaCppLike: true,
    });
  });

  it('reports absent series as null, not 0', () => {
    const m = llamaCppMetricsOf(parsePrometheusText('llamacpp:prompt_tokens_total 3\n'));
    expect(m.decodeTotal).toBeNull();
    expect(m.llamaCppLike).toBe(false);
  });

  it('reads back what the reference server renders', () => {
    const snapshot = {
      promptTokensTotal: 12,
      decodeTotal: 3,
      requestsProcessing: 1,
      requestsDeferred: 4,
      busySlotsPerDecode: 2.5,
      requestsTotal: 9,
      responsesByStatus: {},
    };
    expect(llamaCppMetricsOf(parsePrometheusText(renderPrometheusText(snapshot)))).toEqual({
      promptTokensTotal: 12,
      decodeTotal: 3,
      requestsProcessing: 1,
      requestsDeferred: 4,
      busySlotsPerDecode: 2.5,
      llamaCppLike: true,
    });
  });
});
