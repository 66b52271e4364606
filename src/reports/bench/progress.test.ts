import { describe, expect, it } from 'vitest';
import { renderProgressBar, renderProgressEvent, renderProgressLine, type ProgressState } from './progress.js';
import { stripAnsi, visibleWidth } from '../format.js';

const halfway: ProgressState = {
  casesDone: 200,
  casesTotal: 400,
  errors: 3,
  elapsedMs: 120_000,
  decisionsDone: 1000,
  decisionsTotal: 2000,
};
const start: ProgressState = {
  casesDone: 0,
  casesTotal: 400,
  errors: 0,
  elapsedMs: 0,
  decisionsDone: 0,
  decisionsTotal: 2000,
};

describe('renderProgressBar', () => {
  it('shows decisions done, rate, errors and ETA from the given numbers', () => {
    const line = renderProgressBar(halfway, 120, false);
    expect(line).toContain('1,000/2,000 decisions · 50.0%');
    expect(line).toContain('200/400 cases');
    // 1,000 decisions in 2 minutes: 500 a minute, 1,000 left -> 2 minutes.
    expect(line).toContain('500 decisions/min');
    expect(line).toContain('3 errors');
    expect(line).toContain('ETA 2 min 00 s');
  });

  it('fills the bar in proportion and fits the given width', () => {
    for (const width of [60, 80, 120]) {
      const line = renderProgressBar(halfway, width, false);
      expect(visibleWidth(line)).toBeLessThanOrEqual(width);
      const bar = /^\[([█░]+)\]/.exec(line)![1]!;
      const filled = [...bar].filter((c) => c === '█').length;
      expect(filled).toBe(Math.floor(bar.length / 2));
    }
  });

  it('drops cases, then the percentage, but keeps the rate, the ETA and the errors when narrow', () => {
    const line = renderProgressBar(halfway, 80, false);
    expect(line).not.toContain('cases');
    expect(line).toMatch(/\/min · ETA .* · 3 errors$/);
    const narrow = renderProgressBar(halfway, 60, false);
    expect(narrow).toMatch(/^\[[█░]+\] 1,000\/2,000 · [\d,]+\/min · ETA .* · 3 errors$/);
  });

  it('says n/a for the rate and ETA before anything is done', () => {
    const line = renderProgressBar(start, 120, false);
    expect(line).toContain('n/a decisions/min');
    expect(line).toContain('ETA n/a');
    expect(line).toContain('0 errors');
  });

  it('uses colour codes only when asked', () => {
    expect(renderProgressBar(halfway, 100, false)).not.toMatch(/\u001b\[/);
    const coloured = renderProgressBar(halfway, 100, true);
    expect(coloured).toMatch(/\u001b\[/);
    expect(stripAnsi(coloured)).toBe(renderProgressBar(halfway, 100, false));
  });
});

describe('renderProgressLine', () => {
  it('is one plain line with elapsed time and ETA', () => {
    const line = renderProgressLine(halfway);
    expect(line).toBe(
      'progress: 1,000/2,000 decisions (50.0%), 200/400 cases, 500 decisions/min, 3 errors, elapsed 2 min 00 s, ETA 2 min 00 s',
    );
    expect(renderProgressLine({ ...halfway, errors: 1 })).toContain(', 1 error,');
  });

  it('shows ETA 0 when everything is done', () => {
    expect(renderProgressLine({ ...halfway, casesDone: 400, decisionsDone: 2000 })).toContain('ETA 0 ms');
  });
});

describe('renderProgressEvent', () => {
  it('is one JSON line with unrounded rates and null while unknown', () => {
    const event = JSON.parse(renderProgressEvent({ ...halfway, elapsedMs: 70_000 })) as Record<string, unknown>;
    expect(Object.keys(event)).toEqual([
      'event',
      'cases_done',
      'cases_total',
      'decisions_done',
      'decisions_total',
      'errors',
      'elapsed_ms',
      'decisions_per_minute',
      'eta_ms',
    ]);
    expect(event['decisions_per_minute']).toBe((1000 / 70_000) * 60_000);
    expect(event['eta_ms']).toBeCloseTo(70_000, 6);
    expect(renderProgressEvent(halfway)).not.toContain('\n');
    const first = JSON.parse(renderProgressEvent(start)) as Record<string, unknown>;
    expect(first['decisions_per_minute']).toBeNull();
    expect(first['eta_ms']).toBeNull();
  });
});
