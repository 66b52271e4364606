import { describe, expect, it } from 'vitest';
import { calibrate } from '../core/calibration.js';
import { createLiveState, isUnreachable, reduce, type LiveEvent, type LiveState } from './live-state.js';
import {
  INFO,
  answered,
  failed,
  metrics,
  noulAnswer,
  noulCase,
  threeQuestionCase,
} from './test-support/live-fixtures.js';
import type { CaseResult } from '../core/typed-decisions/case-result.js';

const SIZE = { columns: 80, rows: 24 };

function start(settings: Parameters<typeof createLiveState>[1]['settings'] = {}): LiveState {
  return createLiveState(INFO, { atMs: 0, size: SIZE, settings });
}

const probe = (result: CaseResult, atMs: number): LiveEvent => ({ type: 'poll', atMs, result, statePreview: 'x' });

function feed(state: LiveState, events: readonly LiveEvent[]): LiveState {
  return events.reduce(reduce, state);
}

/** One-question probes, right or wrong at the given confidences, one second apart. */
function noulPolls(answers: ReadonlyArray<readonly [right: boolean, confidence: number]>, from = 1000): LiveEvent[] {
  return answers.map(([right, c], i) => probe(answered(noulCase(`c${i}`), [noulAnswer(right, c)]), from + i * 1000));
}

describe('reduce: the rolling window', () => {
  it('keeps exactly the last N decisions and counts the session apart', () => {
    const s = feed(
      start({ windowSize: 3 }),
      noulPolls([
        [true, 0.8],
        [true, 0.8],
        [false, 0.8],
        [false, 0.8],
      ]),
    );
    expect(s.summary.n).toBe(3);
    expect(s.summary.accuracy).toBeCloseTo(1 / 3, 12);
    expect(s.correct).toBe(2);
    expect(s.decisions).toBe(4);
  });

  it('slides a whole case in at once, dropping the oldest decisions', () => {
    const s = feed(start({ windowSize: 4 }), [
      probe(
        answered(threeQuestionCase('a'), [
          [0.9, 0.1],
          [0.1, 0.8, 0.1],
          [0.1, 0.1, 0.8],
        ]),
        1,
      ),
      probe(
        answered(threeQuestionCase('b'), [
          [0.9, 0.1],
          [0.8, 0.1, 0.1],
          [0.8, 0.1, 0.1],
        ]),
        2,
      ),
    ]);
    // Window: the last decision of case a (wrong) and the three of case b (right).
    expect(s.window).toHaveLength(4);
    expect(s.summary.accuracy).toBe(0.75);
  });

  it('computes ECE over the last N only, as the core calibrates them', () => {
    const early: Array<[boolean, number]> = [
      [true, 0.55],
      [true, 0.55],
      [true, 0.55],
    ];
    const last: Array<[boolean, number]> = [
      [true, 0.8],
      [false, 0.8],
    ];
    const s = feed(start({ windowSize: 2 }), noulPolls([...early, ...last]));
    // Bin 8 holds both: accuracy 0.5, confidence 0.8.
    expect(s.summary.ece).toBeCloseTo(0.3, 12);
    expect(s.summary.ece).toBe(calibrate(last.map(([hit, confidence]) => ({ confidence, hit }))).ece);
    expect(s.summary.histogram[8]).toBe(2);
    expect(s.summary.histogram.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('counts a failed probe as misses in accuracy but not in ECE or confidence', () => {
    const s = feed(start({ windowSize: 10 }), [...noulPolls([[true, 0.7]]), probe(failed(noulCase('f')), 5000)]);
    expect(s.summary.accuracy).toBe(0.5);
    expect(s.summary.answered).toBe(1);
    expect(s.summary.answeredAccuracy).toBe(1);
    expect(s.summary.meanConfidence).toBeCloseTo(0.7, 12);
    expect(s.summary.ece).toBeCloseTo(0.3, 12);
  });

  it('records one trend point per probe', () => {
    const s = feed(
      start({ windowSize: 2 }),
      noulPolls([
        [true, 0.6],
        [false, 0.6],
        [false, 0.6],
      ]),
    );
    expect(s.trend.accuracy).toEqual([1, 0.5, 0]);
    expect(s.trend.ece).toHaveLength(3);
    expect(s.trend.ece[0]).toBeCloseTo(0.4, 12);
  });

  it('tallies session accuracy per question type', () => {
    const s = feed(start(), [
      probe(
        answered(threeQuestionCase('a'), [
          [0.9, 0.1],
          [0.1, 0.8, 0.1],
          [0.8, 0.1, 0.1],
        ]),
        1,
      ),
    ]);
    expect(s.byType).toEqual({
      noul: { correct: 1, total: 1 },
      choice: { correct: 0, total: 1 },
      score: { correct: 1, total: 1 },
    });
    expect(s.latest?.matches).toBe(2);
  });

  it('sums input tokens and takes latency percentiles from answered and failed probes', () => {
    const s = feed(start(), [
      probe(answered(noulCase('a'), [[0.9, 0.1]], { latencyMs: 10, inputTokens: 300 }), 1),
      probe(answered(noulCase('b'), [[0.9, 0.1]], { latencyMs: 30, inputTokens: null }), 2),
      probe(failed(noulCase('c')), 3),
    ]);
    expect(s.inputTokens).toBe(300);
    expect(s.latency.n).toBe(3);
    expect(s.latency.p50).toBe(10);
  });
});

describe('reduce: banners', () => {
  it('raises a banner for a wrong answer at 90% and lets it expire', () => {
    let s = feed(start({ bannerMs: 4000 }), noulPolls([[false, 0.93]], 1000));
    expect(s.banner?.text).toContain('c0 needs_review predicted false at 93%, gold true');
    expect(s.confidentMistakes).toBe(1);
    s = reduce(s, { type: 'tick', atMs: 4999 });
    expect(s.banner).not.toBeNull();
    s = reduce(s, { type: 'tick', atMs: 5000 });
    expect(s.banner).toBeNull();
  });

  it('raises none below 90%, or for a right answer', () => {
    const s = feed(
      start(),
      noulPolls([
        [false, 0.89],
        [true, 0.99],
      ]),
    );
    expect(s.banner).toBeNull();
    expect(s.confidentMistakes).toBe(0);
  });

  it('names the most confident mistake of a case', () => {
    const s = feed(start(), [
      probe(
        answered(threeQuestionCase('k'), [
          [0.05, 0.95],
          [0.02, 0.97, 0.01],
          [0.8, 0.1, 0.1],
        ]),
        1,
      ),
    ]);
    expect(s.banner?.text).toContain('k action predicted escalate at 97%, gold refund (+1 more)');
    expect(s.confidentMistakes).toBe(2);
  });
});

describe('reduce: model unreachable', () => {
  it('shows after exactly three failed probes in a row and clears on a success', () => {
    let s = start();
    s = feed(s, [probe(failed(noulCase('a')), 1), probe(failed(noulCase('b')), 2)]);
    expect(isUnreachable(s)).toBe(false);
    s = reduce(s, probe(failed(noulCase('c'), 'timeout after 10000 ms'), 3));
    expect(isUnreachable(s)).toBe(true);
    expect(s.lastError).toBe('timeout after 10000 ms');
    s = reduce(s, probe(answered(noulCase('d'), [[0.6, 0.4]]), 4));
    expect(isUnreachable(s)).toBe(false);
    expect(s.failureStreak).toBe(0);
  });

  it('does not count failures split by a success', () => {
    const s = feed(start(), [
      probe(failed(noulCase('a')), 1),
      probe(failed(noulCase('b')), 2),
      probe(answered(noulCase('c'), [[0.6, 0.4]]), 3),
      probe(failed(noulCase('d')), 4),
      probe(failed(noulCase('e')), 5),
    ]);
    expect(isUnreachable(s)).toBe(false);
    expect(s.failedPolls).toBe(4);
  });
});

describe('reduce: keys and resize', () => {
  it('resets the session on Ctrl+R and keeps the server panel', () => {
    let s = feed(start(), [
      ...noulPolls([
        [true, 0.9],
        [false, 0.95],
      ]),
      { type: 'metrics', atMs: 100, metrics: metrics({ decodeTotal: 1, promptTokensTotal: 10 }) },
    ]);
    s = reduce(s, { type: 'key', key: 'reset', atMs: 9000 });
    expect(s.polls).toBe(0);
    expect(s.decisions).toBe(0);
    expect(s.window).toEqual([]);
    expect(s.summary.accuracy).toBeNull();
    expect(s.trend.accuracy).toEqual([]);
    expect(s.latest).toBeNull();
    expect(s.banner).toBeNull();
    expect(s.sessionStartMs).toBe(9000);
    expect(s.server.status).toBe('present');
    expect(s.exit).toBeNull();
  });

  it('asks to exit 0 on q and 130 on Ctrl+C', () => {
    expect(reduce(start(), { type: 'key', key: 'quit', atMs: 1 }).exit).toBe(0);
    expect(reduce(start(), { type: 'key', key: 'interrupt', atMs: 1 }).exit).toBe(130);
  });

  it('takes the new size on resize', () => {
    expect(reduce(start(), { type: 'resize', atMs: 1, size: { columns: 120, rows: 40 } }).size).toEqual({
      columns: 120,
      rows: 40,
    });
  });
});

describe('reduce: /metrics', () => {
  const reading = (atMs: number, decodeTotal: number | null, promptTokensTotal: number | null): LiveEvent => ({
    type: 'metrics',
    atMs,
    metrics: metrics({
      decodeTotal,
      promptTokensTotal,
      requestsProcessing: 1,
      requestsDeferred: 0,
      busySlotsPerDecode: 1,
    }),
  });

  it('turns counters into per-second rates between readings', () => {
    const s = feed(start(), [reading(1000, 10, 1000), reading(3000, 30, 5000)]);
    expect(s.server).toMatchObject({ status: 'present', requestsPerSec: 10, inputTokensPerSec: 2000, processing: 1 });
  });

  it('shows no rate, never a negative one, after the counters reset', () => {
    let s = feed(start(), [reading(1000, 100, 9000), reading(2000, 3, 300)]);
    expect(s.server).toMatchObject({ status: 'present', requestsPerSec: null, inputTokensPerSec: null, reset: true });
    s = reduce(s, reading(3000, 5, 500));
    expect(s.server).toMatchObject({ requestsPerSec: 2, inputTokensPerSec: 200, reset: false });
  });

  it('shows no rate for a missing or renamed counter', () => {
    const s = feed(start(), [reading(1000, null, 100), reading(2000, null, 300)]);
    expect(s.server).toMatchObject({ requestsPerSec: null, inputTokensPerSec: 200 });
  });

  it('keeps a failed first reading as the reason it is still waiting', () => {
    const s = reduce(start(), { type: 'metrics-error', atMs: 1, message: 'HTTP 500: boom' });
    expect(s.server).toEqual({ status: 'waiting', error: 'HTTP 500: boom' });
    expect(reduce(s, reading(2, 1, 1)).server).toMatchObject({ status: 'present', error: null });
  });

  it('marks a server without /metrics and keeps values through a failed reading', () => {
    expect(reduce(start(), { type: 'metrics', atMs: 1, metrics: null }).server).toEqual({ status: 'absent' });
    const s = feed(start(), [
      reading(1000, 10, 100),
      reading(2000, 20, 200),
      { type: 'metrics-error', atMs: 3000, message: 'timeout' },
    ]);
    expect(s.server).toMatchObject({ requestsPerSec: 10, error: 'timeout' });
    expect(reduce(s, reading(4000, 40, 400)).server).toMatchObject({ requestsPerSec: 10, error: null });
  });
});
