import { describe, expect, it } from 'vitest';
import type { RunProgress } from '../core/bench/progress.js';
import { createProgressWriter } from './progress-writer.js';

function jsonWriter() {
  let text = '';
  const writer = createProgressWriter({ write: (t: string) => void (text += t), isTTY: false }, 'json', {
    colour: false,
    now: () => 0,
  });
  const events = () =>
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { event: string; cases_done: number; cases_total: number });
  return { writer, events };
}

const progress = (casesDone: number, casesTotal: number): RunProgress => ({
  casesDone,
  casesTotal,
  decisionsDone: casesDone * 3,
  decisionsTotal: casesTotal * 3,
  errors: 0,
  elapsedMs: casesDone,
});

describe('bench --json progress', () => {
  it('writes a line for the first case, at every hundredth of the cases and the last, not one a case', () => {
    const { writer, events } = jsonWriter();
    for (let done = 1; done <= 100_000; done++) writer.onCase(progress(done, 100_000));
    writer.onFinish();
    const lines = events();
    expect(lines).toHaveLength(101);
    expect(lines.map((e) => e.cases_done).slice(0, 3)).toEqual([1, 1_000, 2_000]);
    expect(lines.at(-1)).toMatchObject({ event: 'progress', cases_done: 100_000, cases_total: 100_000 });
  });

  it('writes every case of a run of fewer than a hundred', () => {
    const { writer, events } = jsonWriter();
    for (let done = 1; done <= 7; done++) writer.onCase(progress(done, 7));
    writer.onFinish();
    expect(events().map((e) => e.cases_done)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('writes the progress last seen when sending stops early, once', () => {
    const { writer, events } = jsonWriter();
    for (let done = 1; done <= 5_432; done++) writer.onCase(progress(done, 100_000));
    writer.onFinish();
    writer.onFinish();
    const lines = events();
    expect(lines.map((e) => e.cases_done).slice(-2)).toEqual([5_000, 5_432]);
    expect(lines).toHaveLength(7);
  });
});
