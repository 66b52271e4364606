import { describe, expect, it } from 'vitest';
import { renderBenchMarkdown } from './bench-markdown.js';
import { formatNumber, formatPercent } from '../format.js';
import {
  createFailedRun,
  createManyDisagreementsRun,
  createMixedRun,
  createRun,
  createRunStatistics,
  securityCase,
  TYPED_DECISIONS,
} from '../../core/bench/test-support/bench-run-fixture.js';
import { renderExampleReport } from './test-support/render-example-report.js';

const STATE = {
  agent: { autonomy: 'unsupervised', model: 'internal-agent-v1' },
  constraints: ['never refund twice'],
  task: 'refund order 1182',
};

function headings(markdown: string): string[] {
  return markdown.split('\n').filter((l) => l.startsWith('#'));
}

/** The index of each marker in `text`; -1 for a missing one. */
function positions(text: string, markers: readonly string[]): number[] {
  return markers.map((m) => text.indexOf(m));
}

describe('renderBenchMarkdown', () => {
  const run = createMixedRun();
  const states = new Map(run.cases.map((c) => [c.caseId, STATE]));
  const markdown = renderBenchMarkdown(run, { states, statistics: createRunStatistics(run) });

  it('matches the reviewed snapshot', async () => {
    await expect(markdown).toMatchFileSnapshot('./__snapshots__/bench-markdown.mixed.md');
  });

  it('puts each headline interval beside its number and says cases are resampled', () => {
    const st = createRunStatistics(run);
    const acc = st.intervals!.accuracy!;
    expect(markdown).toContain(
      `**Accuracy: ${formatPercent(run.summary.accuracy)}** [${formatPercent(acc.low)}, ${formatPercent(acc.high)}]`,
    );
    expect(markdown).toContain(`**Log loss:** ${formatNumber(run.summary.logLoss)} [`);
    expect(markdown).toMatch(/noise floor \d\.\d{3} \(95th percentile \d\.\d{3}\): (within|beyond) noise/);
    expect(markdown).toContain('Cases are resampled, not decisions');
    expect(markdown).toContain('Conventions: ECE over 10 equal-width bins, pooled over decisions');
    expect(renderBenchMarkdown(run)).not.toContain('Cases are resampled');
  });

  it('puts the sections in the order of the spec', () => {
    expect(headings(markdown)).toEqual([
      '# Decision benchmark: laya-mini',
      '## How to read this',
      '## By question type',
      '## By workflow',
      '## By question',
      '## Calibration',
      '## Latency',
      '## Disagreements with gold',
      '## Trace',
    ]);
    const order = positions(markdown, [
      '# Decision benchmark',
      'Run `r-20260101-0001`',
      '**Accuracy:',
      '**KL from gold:**',
      '**Rating:**',
      '**Requests:**',
      '**Duration:**',
      '## How to read this',
      '<details>',
    ]);
    expect(order.every((p) => p >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('shows the headline numbers of the summary', () => {
    const s = run.summary;
    expect(s.correct).toBe(8);
    expect(s.total).toBe(15);
    expect(markdown).toMatch(
      /\*\*Accuracy: 53\.3%\*\* \[\d+\.\d%, \d+\.\d%\] \(8\/15 decisions; 3 errors count as misses\)/,
    );
    expect(markdown).toContain('**Rating:** ★★☆ above the 47.0% prior');
    expect(markdown).toContain('5 sent, 4 answered, 1 failed (timeout 1)');
    expect(markdown).toContain('**Input tokens:** 3,679');
    expect(markdown).toContain(`confident disagreements** (wrong at ≥ 90% confidence): ${s.confidentDisagreements}`);
  });

  it('explains how to read the numbers, with the reference points and the ECE caveat', () => {
    const section = markdown.slice(markdown.indexOf('## How to read this'), markdown.indexOf('## By question type'));
    expect(section).toContain('not correctness');
    expect(section).toContain('47.0%');
    expect(section).toContain('73.5%');
    expect(section).toContain("not comparable with the card's ECE column");
    expect(section).toContain('not Typed Decisions scores');
  });

  it('does not call a real Typed Decisions run synthetic', () => {
    const real = renderBenchMarkdown(createMixedRun({ dataset: TYPED_DECISIONS }));
    expect(real).not.toContain('ynthetic');
    expect(real).toContain('[LocalLLaMA/typed-decisions](https://huggingface.co/datasets/LocalLLaMA/typed-decisions)');
    expect(real).toContain('revision `e039ebffcc280174dd354227424fb2b249f191de`');
    expect(real).toContain('license Apache-2.0');
  });

  it('writes the trace in the documented format with both distributions', () => {
    expect(markdown).toContain(
      [
        'security_incidents_000001  {"agent": {"autonomy": "unsupervised", "model": "internal-agent-v1"}, ...',
        '  needs_review (noul)  ✗  pred true  gold false  KL 0.269  Brier 0.261',
        '      pred  true=0.611 false=0.389',
        '      gold  true=0.250 false=0.750',
      ].join('\n'),
    );
    // A predicted tie goes to the answer listed first (noul 0.5 -> true).
    expect(markdown).toContain('  needs_review (noul)  ✓  pred true  gold true');
    expect(markdown).toMatch(/<details>\n<summary>[^\n]*15 decisions in 5 cases[^\n]*<\/summary>\n\n```text\n/);
  });

  it('shows a failed case with its error kind and message in the trace and under requests', () => {
    expect(markdown).toContain('security_incidents_000003  {"agent"');
    expect(markdown).toContain('  error  timeout: no answer within 30 s');
    expect(markdown).toContain('  needs_review (noul)  –  pred none  gold true  (timeout)');
    expect(markdown).toContain('- `security_incidents_000003` timeout: no answer within 30 s');
  });

  it('leaves the state preview out without states', () => {
    const bare = renderBenchMarkdown(run);
    expect(bare).toContain('\nsecurity_incidents_000001\n  needs_review (noul)');
    expect(bare).not.toContain('{"agent"');
  });

  it('shows the endpoint as scheme://host:port/path and redacts the host when asked', () => {
    expect(markdown).toContain(
      'Answered by model `laya-mini` at `http://decider.internal:8084/v1/systemone` · parallel 4',
    );
    const redacted = renderBenchMarkdown(run, { redactHost: true });
    expect(redacted).toContain('`http://<redacted>:8084/v1/systemone`');
    expect(redacted).not.toContain('decider.internal');
  });

  it('lists the ten most confident disagreements, then how many more', () => {
    const many = createManyDisagreementsRun(6);
    const text = renderBenchMarkdown(many);
    const section = text.slice(text.indexOf('## Disagreements with gold'), text.indexOf('## Trace'));
    const rows = section.split('\n').filter((l) => /^\| security_incidents_/.test(l));
    expect(rows).toHaveLength(10);
    const confidences = rows.map((r) => Number(r.split(' | ')[4]));
    // Confidence 0.99 - 0.01 k for decision k: the ten highest are 0.99 .. 0.90, in order.
    expect(confidences).toEqual([0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.93, 0.92, 0.91, 0.9]);
    expect(rows[0]).toMatch(/^\| security_incidents_000001 \| needs_review \| noul \| false \| 0\.990 \|/);
    expect(section).toContain('and 8 more.');
  });

  it('escapes | and line breaks in question ids and messages inside tables', () => {
    const odd = createRun([
      {
        benchCase: securityCase(
          1,
          [{ labelIndex: 0, probabilities: [0.9, 0.1] }],
          [['risk|level\nnext', { type: 'noul', instructions: 'Risky?' }]],
        ),
        outcome: { status: 'answered', latencyMs: 10, inputTokens: null, predicted: [[0.05, 0.95]] },
      },
      {
        benchCase: securityCase(
          2,
          [{ labelIndex: 0, probabilities: [0.9, 0.1] }],
          [['risk|level\nnext', { type: 'noul', instructions: 'Risky?' }]],
        ),
        outcome: {
          status: 'failed',
          failure: { kind: 'malformed', message: 'question risk|level: bad\nvalue' },
          latencyMs: 5,
        },
      },
    ]);
    const text = renderBenchMarkdown(odd);
    expect(text).toContain('| security_incidents/risk\\|level<br>next |');
    expect(text).toContain('| security_incidents_000001 | risk\\|level<br>next | noul |');
    expect(text).toContain('malformed: question risk|level: bad<br>value');
    // In the trace (a code block) line breaks are shown escaped, so each decision stays one line.
    expect(text).toContain('  risk|level\\nnext (noul)  ✗');
    expect(text).toContain('  error  malformed: question risk|level: bad\\nvalue');
    // Every table row still has as many cells as its header.
    for (const line of text.split('\n').filter((l) => l.startsWith('| '))) {
      expect(line.split(/(?<!\\)\|/).length).toBeGreaterThan(2);
      expect(line).not.toMatch(/\n/);
    }
    const byQuestion = text.split('\n').filter((l) => l.startsWith('| security_incidents/'));
    const headerCells = text
      .split('\n')
      .find((l) => l.startsWith('| workflow/question'))!
      .split(/(?<!\\)\|/).length;
    for (const row of byQuestion) expect(row.split(/(?<!\\)\|/).length).toBe(headerCells);
  });

  it('says "Incomplete: no successful cases" and leaves out calibration and latency when nothing was answered', () => {
    const text = renderBenchMarkdown(createFailedRun());
    expect(text).toContain('**Rating:** Incomplete: no successful cases');
    expect(text).not.toMatch(/^\*\*Rating:\*\* [★☆]/m);
    expect(headings(text)).not.toContain('## Calibration');
    expect(headings(text)).not.toContain('## Latency');
    expect(text).toContain('**KL from gold:** n/a · **Brier:** n/a · **Log loss:** n/a · **ECE:** n/a');
    expect(text).toContain('0 answered, 2 failed (transport 1, http 1)');
    expect(text).toContain('No answered decisions.');
    expect(text).toContain('  error  transport: connection refused by 127.0.0.1:8084');
  });

  it('shows absent values as n/a, never 0', () => {
    const text = renderBenchMarkdown(createManyDisagreementsRun(1), {});
    expect(text).toContain('**Input tokens:** n/a');
    const noDuration = renderBenchMarkdown(createMixedRun({ durationMs: null }));
    expect(noDuration).toContain('**Duration:** n/a');
  });

  it('marks a filtered run as not comparable with a full one', () => {
    const filtered = renderBenchMarkdown(
      createMixedRun({ config: { filters: { limit: 5, workflow: 'security_incidents' } } }),
    );
    expect(filtered).toContain(
      '> **Filtered run** (limit 5, workflow security_incidents): not comparable with a full run.',
    );
    expect(renderBenchMarkdown(run)).not.toContain('Filtered run');
  });

  it('shows cost per correct decision with a price', () => {
    const priced = renderBenchMarkdown(createMixedRun({ config: { pricePerMtokUsd: 0.5 } }));
    // 3,679 tokens at $0.50 per million = $0.0018395 (3 significant digits); per correct decision (8): $0.00022994.
    expect(priced).toContain('**Cost:** $0.00184 at $0.500 per million input tokens ($0.000230 per correct decision)');
  });

  it('says how many cases an interrupted run sent', () => {
    const partial = createMixedRun({ summarize: { interrupted: true } });
    const interrupted = {
      ...partial,
      config: { ...partial.config, caseIds: [...partial.config.caseIds, 'security_incidents_000009'] },
    };
    expect(renderBenchMarkdown(interrupted)).toContain('status interrupted (5 of 6 cases sent)');
  });

  it('escapes a label in the title', () => {
    const labelled = renderBenchMarkdown(createMixedRun({ label: 'nightly <b>*bold*</b>' }));
    expect(labelled).toContain('# Decision benchmark: nightly &lt;b&gt;\\*bold\\*&lt;/b&gt;\n');
  });

  it('keeps the example report in docs/ up to date', async () => {
    const example = renderExampleReport();
    expect(example).toContain('and 6 more.');
    await expect(example).toMatchFileSnapshot('../../../docs/example-report.md');
  });
});
