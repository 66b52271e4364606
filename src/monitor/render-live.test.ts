import { describe, expect, it } from 'vitest';
import { stripAnsi, visibleWidth } from '../reports/format.js';
import { createLiveState, reduce, type LiveEvent, type LiveState, type TerminalSize } from './live-state.js';
import { renderLive } from './render-live.js';
import type { CaseResult } from '../core/typed-decisions/case-result.js';
import {
  INFO,
  answered,
  failed,
  metrics,
  noulAnswer,
  noulCase,
  threeQuestionCase,
} from './test-support/live-fixtures.js';

const SIZES: readonly TerminalSize[] = [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 },
  { columns: 60, rows: 20 },
];

/** A session of 12 probes (one failed, the last with a confident mistake), with or without /metrics. */
function session(withMetrics: boolean): LiveState {
  let s = createLiveState(INFO, { atMs: 0, size: { columns: 80, rows: 24 } });
  const events: LiveEvent[] = [];
  for (let i = 0; i < 10; i++) {
    const c = 0.5 + (i % 5) / 10;
    events.push({
      type: 'poll',
      atMs: 500 * (i + 1),
      result: answered(
        threeQuestionCase(`customer_service_${String(i).padStart(6, '0')}`),
        [noulAnswer(i % 3 !== 0, c), [c, (1 - c) / 2, (1 - c) / 2], [0.2, 0.7, 0.1]],
        { latencyMs: 8 + i, inputTokens: 480 + i },
      ),
      statePreview: `{"customer":"case ${i}","message":"I was charged twice for order ${i} and nobody answers"}`,
    });
  }
  events.push({ type: 'poll', atMs: 5500, result: failed(noulCase('agent_trace_000002')), statePreview: 'x' });
  events.push({
    type: 'poll',
    atMs: 6000,
    result: answered(threeQuestionCase('invoice_processing_000007', 'invoice_processing'), [
      [0.04, 0.96],
      [0.9, 0.05, 0.05],
      [0.6, 0.3, 0.1],
    ]),
    statePreview: '{"invoice":{"amount":1250,"currency":"EUR"}}',
  });
  if (withMetrics)
    events.push(
      {
        type: 'metrics',
        atMs: 4000,
        metrics: metrics({
          decodeTotal: 8,
          promptTokensTotal: 4000,
          requestsProcessing: 1,
          requestsDeferred: 0,
          busySlotsPerDecode: 1,
        }),
      },
      {
        type: 'metrics',
        atMs: 6000,
        metrics: metrics({
          decodeTotal: 12,
          promptTokensTotal: 6000,
          requestsProcessing: 0,
          requestsDeferred: 0,
          busySlotsPerDecode: 1,
        }),
      },
    );
  else events.push({ type: 'metrics', atMs: 4000, metrics: null });
  for (const e of events) s = reduce(s, e);
  return s;
}

describe('renderLive', () => {
  for (const withMetrics of [true, false]) {
    for (const size of SIZES) {
      const name = `${size.columns}x${size.rows}${withMetrics ? '' : '-no-metrics'}`;
      it(`fills ${name} exactly, nothing wider than the screen`, async () => {
        const lines = renderLive(session(withMetrics), size, { colour: false });
        expect(lines).toHaveLength(size.rows);
        for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(size.columns);
        const text = lines.join('\n');
        for (const panel of ['now · invoice_processing_000007', 'quality', 'by question type', 'confidence', 'server'])
          expect(text).toContain(panel);
        expect(lines[1]).toMatch(/^! confident mistake: invoice_processing_000007 needs_review/);
        expect(lines.at(-1)).toContain('data: synthetic sample');
        expect(text).toContain(withMetrics ? '2.0 req/s' : 'no /metrics');
        await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot(`__snapshots__/live-${name}.txt`);
      });
    }
  }

  it('draws in colour, and the same text without it', async () => {
    for (const size of SIZES) {
      const plain = renderLive(session(true), size, { colour: false });
      const coloured = renderLive(session(true), size, { colour: true });
      expect(coloured.join('\n')).toMatch(/\u001b\[\d+m/);
      expect(plain.join('\n')).not.toMatch(/\u001b/);
      expect(coloured.map(stripAnsi)).toEqual(plain);
      for (const line of coloured) expect(visibleWidth(line)).toBeLessThanOrEqual(size.columns);
    }
    await expect(`${renderLive(session(true), SIZES[0]!, { colour: true }).join('\n')}\n`).toMatchFileSnapshot(
      '__snapshots__/live-80x24-colour.txt',
    );
  });

  it('shows "model unreachable" with the last error over any banner', () => {
    let s = session(true);
    for (let i = 0; i < 3; i++)
      s = reduce(s, {
        type: 'poll',
        atMs: 7000 + i,
        result: failed(noulCase(`f${i}`), 'nothing is listening at 127.0.0.1:9'),
        statePreview: 'x',
      });
    const lines = renderLive(s, { columns: 120, rows: 40 }, { colour: false });
    expect(lines[1]).toContain(
      'model unreachable: 3 failed probes in a row; last error: nothing is listening at 127.0.0.1:9',
    );
    expect(lines.join('\n')).toContain('failed (http): nothing is listening');
    expect(lines.join('\n')).toContain('recent probes · newest first');
    expect(lines.join('\n')).toContain('f2                               failed http: nothing is listening');
  });

  it('says why the server panel is still waiting when /metrics fails', () => {
    let s = createLiveState(INFO, { atMs: 0, size: { columns: 80, rows: 24 } });
    s = reduce(s, { type: 'metrics-error', atMs: 1, message: 'HTTP 500: metrics broke' });
    expect(renderLive(s, { columns: 80, rows: 24 }, { colour: false }).join('\n')).toContain(
      '/metrics: HTTP 500: metrics broke',
    );
  });

  it('marks the server numbers stale while /metrics fails, with how old they are', () => {
    let s = session(true);
    const fresh = renderLive(s, { columns: 120, rows: 40 }, { colour: false }).join('\n');
    expect(fresh).not.toContain('stale');
    s = reduce(s, { type: 'metrics-error', atMs: 7000, message: 'nothing is listening at 127.0.0.1:9' });
    s = reduce(s, { type: 'tick', atMs: 18_000 });
    for (const size of SIZES) {
      const lines = renderLive(s, size, { colour: false });
      for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(size.columns);
      const text = lines.join('\n');
      expect(text).toMatch(/stale [\d.]+ req\/s/);
      expect(text).not.toMatch(/server-wide [\d.]+ req\/s/);
    }
    const wide = renderLive(s, { columns: 120, rows: 40 }, { colour: false }).join('\n');
    expect(wide).toContain('stale 2.0 req/s · 1000 tok/s');
    expect(wide).toContain('stale busy slots 1.0 · processing 0');
    expect(wide).toContain('/metrics last read 12.0 s ago: nothing is listening');
    // The next good reading makes the numbers current again.
    s = reduce(s, {
      type: 'metrics',
      atMs: 19_000,
      metrics: metrics({ decodeTotal: 12, promptTokensTotal: 6000, requestsProcessing: 0, busySlotsPerDecode: 1 }),
    });
    expect(renderLive(s, { columns: 120, rows: 40 }, { colour: false }).join('\n')).not.toContain('stale');
  });

  it('shows the accuracy of answered decisions beside the accuracy that counts failures as misses', () => {
    let s = createLiveState(INFO, { atMs: 0, size: { columns: 80, rows: 24 } });
    const polls: CaseResult[] = [
      answered(noulCase('a'), [noulAnswer(true, 0.8)]),
      answered(noulCase('b'), [noulAnswer(false, 0.6)]),
      failed(noulCase('c')),
      failed(noulCase('d')),
    ];
    polls.forEach((result, i) => (s = reduce(s, { type: 'poll', atMs: 500 * (i + 1), result, statePreview: 'x' })));
    for (const size of SIZES) {
      const text = renderLive(s, size, { colour: false }).join('\n');
      expect(text).toMatch(/accuracy +25\.0%/);
      expect(text).toMatch(/answered +50\.0% +1\/2/);
    }
  });

  it('waits for the first probe on an empty session', () => {
    const s = createLiveState(INFO, { atMs: 0, size: { columns: 80, rows: 24 } });
    const lines = renderLive(s, { columns: 80, rows: 24 }, { colour: false });
    expect(lines).toHaveLength(24);
    expect(lines.join('\n')).toContain('waiting for the first probe');
    expect(lines.join('\n')).toContain('n/a');
  });

  it('says the window is too small below 40x12, within the window', () => {
    const lines = renderLive(session(true), { columns: 30, rows: 5 }, { colour: false });
    expect(lines).toHaveLength(5);
    expect(lines[0]).toContain('decidekit live: the w');
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(30);
  });

  it('says the input tokens were not reported instead of a bare n/a', () => {
    let s = createLiveState(INFO, { atMs: 0, size: { columns: 100, rows: 30 } });
    s = reduce(s, {
      type: 'poll',
      atMs: 500,
      result: answered(noulCase('b'), [noulAnswer(true, 0.9)], { latencyMs: 30, inputTokens: null }),
      statePreview: 'x',
    });
    const screen = stripAnsi(renderLive(s, { columns: 100, rows: 30 }, { colour: false }).join('\n'));
    expect(screen).toContain('input tokens not reported');
    expect(screen).not.toContain('input tokens n/a');
  });
});
