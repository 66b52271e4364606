/**
 * A `bench --json` document with its timings taken out (the summary's latency_ms dropped,
 * each decision's set to 0): what two runs of the same work must share, whether one was
 * resumed or not.
 */
export function withoutTimings(text: string): { summary: Record<string, unknown>; decisions: unknown[] } {
  const doc = JSON.parse(text) as { summary: Record<string, unknown>; decisions: unknown[] };
  const { latency_ms: _l, ...summary } = doc.summary;
  return { summary, decisions: doc.decisions.map((d) => ({ ...(d as object), latency_ms: 0 })) };
}
