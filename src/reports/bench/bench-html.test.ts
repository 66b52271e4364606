import { describe, expect, it } from 'vitest';
import {
  createFailedRun,
  createMixedRun,
  createRun,
  securityCase,
} from '../../core/bench/test-support/bench-run-fixture.js';
import { renderBenchHtml } from './bench-html.js';

const gold = [
  { labelIndex: 0, probabilities: [0.9, 0.1] },
  { labelIndex: 1, probabilities: [0.2, 0.7, 0.1] },
  { labelIndex: 3, probabilities: [0, 0.05, 0.25, 0.7] },
];

/** A run of `cases` security cases (three decisions each), answers varied by case number. */
function bigRun(cases: number) {
  return createRun(
    Array.from({ length: cases }, (_, i) => {
      const p = ((i * 37) % 100) / 100;
      return {
        benchCase: securityCase(i + 1, gold),
        outcome: {
          status: 'answered' as const,
          latencyMs: 50 + ((i * 13) % 400),
          inputTokens: 1000,
          predicted: [
            [p, 1 - p],
            [p / 2, 1 - p, p / 2],
            [0.1, 0.2, 0.3, 0.4],
          ],
        },
      };
    }),
  );
}

describe('renderBenchHtml', () => {
  it('stays under 1 MB for a 2,001-decision run, with every decision in the trace', () => {
    const run = bigRun(667);
    expect(run.summary.total).toBe(2001);
    const html = renderBenchHtml(run);
    expect(Buffer.byteLength(html)).toBeLessThan(1_000_000);
    expect(html.match(/<tr data-q=/g)).toHaveLength(2001);
  });

  it('makes no request: no external URL in src or href, and a CSP that forbids them', () => {
    const html = renderBenchHtml(createMixedRun());
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/\ssrc=/);
    expect(html.match(/href="([^"]*)"/g) ?? []).toEqual([]);
  });

  it('escapes names that look like markup', () => {
    const run = createMixedRun({ label: '<script>alert(1)</script>' });
    const html = renderBenchHtml(run);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('redacts the host when asked', () => {
    const html = renderBenchHtml(createMixedRun(), { redactHost: true });
    expect(html).not.toContain('decider.internal');
    expect(html).toContain('&lt;redacted&gt;');
  });

  it('says on each card why its number is absent when nothing was answered', () => {
    const html = renderBenchHtml(createFailedRun());
    for (const key of ['kl', 'brier', 'logLoss', 'ece'])
      expect(html).toMatch(new RegExp(`data-key="${key}"[\\s\\S]*?n/a: no decision was answered \\(\\d+ failed\\)`));
  });

  it('lists the first failed cases, then every failure by cause, under a banner of an incomplete run', () => {
    const failures = Array.from({ length: 25 }, (_, i) => ({
      benchCase: securityCase(i + 1, gold),
      outcome: {
        status: 'failed' as const,
        failure: { kind: 'http' as const, message: i < 5 ? 'HTTP 503: busy' : 'HTTP 500: boom' },
        latencyMs: 5,
      },
    }));
    const html = renderBenchHtml(createRun(failures));
    expect(html).toMatch(/data-run-status="incomplete"><strong>Incomplete run:<\/strong> 25 of 25 requests failed\./);
    const listed = html.slice(
      html.indexOf('id="failures-table"'),
      html.indexOf('</table>', html.indexOf('id="failures-table"')),
    );
    expect(listed.match(/<tr>/g)).toHaveLength(20 + 1);
    expect(html).toContain('And 5 more failed cases. Every failure, by cause:');
    const causes = html.slice(html.indexOf('id="failure-causes-table"'));
    expect(causes).toMatch(/HTTP 503: busy<\/td><td class="n"[^>]*>5</);
    expect(causes).toMatch(/HTTP 500: boom<\/td><td class="n"[^>]*>20</);
  });

  it('says how much of an interrupted run was sent', () => {
    const run = createRun(
      [1, 2].map((n) => ({
        benchCase: securityCase(n, gold),
        outcome: {
          status: 'answered' as const,
          latencyMs: 5,
          inputTokens: 10,
          predicted: [
            [0.9, 0.1],
            [0.1, 0.8, 0.1],
            [0.1, 0.2, 0.3, 0.4],
          ],
        },
      })),
      {
        config: { caseIds: ['a', 'b', 'c', 'd'].map((x) => `security_incidents_${x}`) },
        summarize: { interrupted: true },
      },
    );
    const html = renderBenchHtml(run);
    expect(html).toContain(
      '<strong>Interrupted run:</strong> 2 of 4 cases were not sent. The numbers cover the cases sent only.',
    );
    expect(html).not.toContain('id="failures"');
  });
});
