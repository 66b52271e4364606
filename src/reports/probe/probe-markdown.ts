/** The probe's Markdown report: verdict, conformance checks with examples, robustness numbers, meaning. */
import type { ProbeRun } from '../../core/probe/run.js';
import { escapeMarkdownText, formatRatio, markdownFence, renderMarkdownTable } from '../format.js';
import {
  describeIsolationAccuracy,
  describeNoiseFloor,
  describeSample,
  describeTarget,
  formatDistance,
  formatMaxDiff,
  formatRate,
  meaningOf,
} from './probe-describe.js';
import { describeMoved, verdictLine } from './probe-terminal.js';

const mark = (status: string) => (status === 'pass' ? '✓ pass' : status === 'fail' ? '✗ fail' : '– not run');

export function renderProbeMarkdown(run: ProbeRun): string {
  const out = [
    `# Probe: ${escapeMarkdownText(describeTarget(run))}`,
    '',
    `${escapeMarkdownText(describeSample(run))} · probe \`${run.id}\` · ${run.createdAt}`,
    '',
    `**${verdictLine(run)}**`,
    '',
  ];
  const c = run.conformance;
  if (c !== null) {
    out.push(
      '## Conformance',
      '',
      'Each rule of the System One wire format (docs/system-one.md), judged on every answer the server gave; a failure shows the first request that broke it and the offending answer.',
      '',
      ...renderMarkdownTable(
        ['check', 'result', 'items', 'rule'],
        c.checks.map((k) => [
          k.id,
          mark(k.status),
          k.status === 'not_run'
            ? ''
            : k.failed > 0
              ? `${formatRatio(k.failed, k.checked)} failed`
              : formatRatio(k.checked, k.checked),
          k.rule,
        ]),
        { align: ['left', 'left', 'right', 'left'] },
      ),
      '',
    );
    for (const k of c.checks.filter((x) => x.examples.length > 0)) {
      out.push(`### ✗ ${k.id}`, '', escapeMarkdownText(k.rule), '');
      for (const e of k.examples) {
        out.push(`- ${escapeMarkdownText(e.message)}`, '');
        for (const [what, text] of [
          ['request', e.request],
          ['answer', e.answer],
        ] as const) {
          const fence = markdownFence(text);
          out.push(`  ${what}:`, '', `  ${fence}json`, `  ${text.replace(/\n/g, '\n  ')}`, `  ${fence}`, '');
        }
      }
    }
  }
  const r = run.robustness;
  if (r !== null) {
    out.push(
      '## Robustness',
      '',
      `Each probe asks the same questions of ${run.config.caseIds.length} cases another way and compares the answers with the case's first answer: the share of answers whose most probable option changed (flipped; a tie broken differently is no flip) and the mean total-variation distance ½ Σ |p − q|, each with a 95% interval by case. ${
        r.noiseFloor === null
          ? ''
          : `The noise floor is what a plain repeat moves, the larger of the two repeat probes (determinism, and stale-cache for the other probes) over all their questions: ${describeNoiseFloor(r)}. Each probe is judged against the same repeats on its own questions (option order: choice questions only). On a deterministic server any flip fails a probe; otherwise a probe fails when its interval lies wholly above the floor's.`
      }`,
      '',
      ...renderMarkdownTable(
        ['probe', 'result', 'pairs', 'answers flipped', 'mean distance (TV)', 'max diff', 'rule'],
        r.probes.map((x) => [
          x.id,
          mark(x.verdict === 'no_data' ? 'not_run' : x.verdict),
          String(x.pairs),
          formatRate(x.flipRate),
          formatDistance(x.meanTv),
          formatMaxDiff(x.maxAbsDiff),
          x.rule,
        ]),
        { align: ['left', 'left', 'right', 'right', 'right', 'right', 'left'] },
      ),
      '',
    );
    const iso = r.probes.find((x) => x.id === 'isolation');
    const acc = iso === undefined ? null : describeIsolationAccuracy(iso);
    if (acc !== null) out.push(`Isolation: ${escapeMarkdownText(acc)}.`, '');
    out.push('### What it means for the benchmark', '');
    for (const x of r.probes) out.push(`- **${x.id}**: ${escapeMarkdownText(meaningOf(x, r))}`);
    out.push('');
    const moved = r.probes.filter((x) => x.moved.length > 0);
    if (moved.length > 0) {
      out.push('### Answers that moved most', '');
      for (const x of moved) for (const m of x.moved) out.push(`- ${x.id}: ${escapeMarkdownText(describeMoved(m))}`);
      out.push('');
    }
  }
  return `${out.join('\n')}\n`;
}
