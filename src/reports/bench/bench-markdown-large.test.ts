/**
 * The Markdown report of a large run, pinned by its SHA-256: the trace's rendering (the
 * code fence chosen, escaping, number formatting) gives the same bytes however it is made.
 * The run is seeded: 20,000 cases over two workflows and every question type, with awkward
 * probabilities (tiny, negative-zero-prone, thirds), failed requests, and case ids, states
 * and failure messages holding backticks and control characters.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createRun,
  securityCase,
  supportCase,
  type FixtureCase,
} from '../../core/bench/test-support/bench-run-fixture.js';
import { createSeededRandom } from '../../core/seeded-random.js';
import { FAILURE_KINDS, type TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import { renderBenchMarkdown } from './bench-markdown.js';

const CASES = 20_000;

function distribution(random: () => number, n: number): number[] {
  const raw = Array.from({ length: n }, () => {
    const r = random();
    // Some tiny values and exact zeros, so rounding to three places meets its edges.
    return r < 0.05 ? 0 : r < 0.1 ? r * 1e-6 : r;
  });
  const total = raw.reduce((a, b) => a + b, 0);
  return total === 0 ? raw.map((_, i) => (i === 0 ? 1 : 0)) : raw.map((x) => x / total);
}

function largeRun() {
  const random = createSeededRandom(2026);
  const items: FixtureCase[] = [];
  const states = new Map<string, string | object>();
  for (let n = 0; n < CASES; n++) {
    const golds = [2, 3, 4].map((k) => ({
      labelIndex: Math.floor(random() * k),
      probabilities: distribution(random, k),
    }));
    const supportGolds = [2, 2, 3].map((k) => ({
      labelIndex: Math.floor(random() * k),
      probabilities: distribution(random, k),
    }));
    let benchCase: TypedDecisionsCase =
      n % 3 === 0 ? supportCase(n, supportGolds) : securityCase(n, golds as TypedDecisionsCase['gold']);
    if (n % 1_001 === 7) benchCase = { ...benchCase, id: `${benchCase.id}\u0007tick\`\`\`\`${n}` };
    if (n % 17 === 0) states.set(benchCase.id, `a \`quoted\` state\twith a tab, ${'x'.repeat(n % 90)}`);
    else if (n % 5 !== 0) states.set(benchCase.id, benchCase.state as object);
    const latencyMs = random() < 0.01 ? 1_500 + random() * 100 : random() * 400;
    if (n % 97 === 3) {
      const kind = FAILURE_KINDS[n % FAILURE_KINDS.length]!;
      items.push({
        benchCase,
        outcome: {
          status: 'failed',
          failure: { kind, message: `HTTP 500: \`boom\`\nline ${n}` },
          latencyMs: n % 2 ? null : latencyMs,
        },
      });
      continue;
    }
    const predicted = benchCase.questions.map(([, q]) =>
      distribution(random, q.type === 'noul' ? 2 : q.type === 'choice' ? q.options.length : q.levels.length),
    );
    items.push({ benchCase, outcome: { status: 'answered', latencyMs, inputTokens: 1000 + n, predicted } });
  }
  return { run: createRun(items), states };
}

describe('the Markdown report of a 20,000-case run', () => {
  it('keeps its bytes', () => {
    const { run, states } = largeRun();
    const text = renderBenchMarkdown(run, { states });
    expect(text.length).toBeGreaterThan(5_000_000);
    expect(createHash('sha256').update(text).digest('hex')).toBe(
      '148eeef392cedec42c632cb53a9c15ef7289e11845c8217bd15253df0fbb8c72',
    );
  }, 120_000);
});
