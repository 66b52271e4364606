/**
 * An example Markdown benchmark report built from a deterministic fixture run (16 cases,
 * two workflows, a timeout and an HTTP error). Regenerate docs/example-report.md with:
 *   npx tsx -e "import('./src/reports/bench/test-support/render-example-report.ts').then((m) => process.stdout.write(m.renderExampleReport()))" > docs/example-report.md
 */
import type { TypedDecisionsCase } from '../../../core/typed-decisions/case-result.js';
import { renderBenchMarkdown } from '../bench-markdown.js';
import {
  createRun,
  createRunStatistics,
  securityCase,
  supportCase,
  type FixtureCase,
} from '../../../core/bench/test-support/bench-run-fixture.js';
import { createSeededRandom } from '../../../core/seeded-random.js';

/** A distribution over `k` answers leaning toward `favourite` by `weight`. */
function lean(random: () => number, k: number, favourite: number, weight: number): number[] {
  const raw = Array.from({ length: k }, (_, i) => (i === favourite ? weight : 0) + random());
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => Math.round((x / sum) * 1000) / 1000);
}

function goldFor(random: () => number, sizes: readonly number[]): TypedDecisionsCase['gold'] {
  return sizes.map((k) => {
    const probabilities = lean(random, k, Math.floor(random() * k), 2.5);
    return { labelIndex: probabilities.indexOf(Math.max(...probabilities)), probabilities };
  });
}

export function renderExampleReport(): string {
  const random = createSeededRandom(7);
  const items: FixtureCase[] = [];
  for (let n = 1; n <= 8; n++) {
    for (const make of [securityCase, supportCase]) {
      const sizes = make === securityCase ? [2, 3, 4] : [2, 2, 3];
      const gold = goldFor(random, sizes);
      const benchCase = make(n, gold);
      if (n === 3 && make === securityCase) {
        items.push({
          benchCase,
          outcome: {
            status: 'failed',
            failure: { kind: 'timeout', message: 'no answer within 30 s' },
            latencyMs: 30_000,
          },
        });
        continue;
      }
      if (n === 6 && make === supportCase) {
        items.push({
          benchCase,
          outcome: {
            status: 'failed',
            failure: { kind: 'http', message: 'HTTP 503: server busy | retry later' },
            latencyMs: 41,
          },
        });
        continue;
      }
      const predicted = gold.map((g, i) => {
        const k = sizes[i]!;
        const favourite = random() < 0.68 ? g.labelIndex : (g.labelIndex + 1) % k;
        return lean(random, k, favourite, 1 + random() * 12);
      });
      items.push({
        benchCase,
        outcome: {
          status: 'answered',
          latencyMs: Math.round(120 + random() * 400),
          inputTokens: 600 + Math.round(random() * 700),
          predicted,
        },
      });
    }
  }
  const run = createRun(items, {
    config: { pricePerMtokUsd: 0.2 },
    durationMs: 4_870,
    label: 'laya-mini on the synthetic sample',
  });
  const states = new Map(items.map((i) => [i.benchCase.id, i.benchCase.state]));
  return renderBenchMarkdown(run, { states, statistics: createRunStatistics(run) });
}
