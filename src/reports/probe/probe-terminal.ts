/** The probe's terminal report: conformance checks, robustness numbers, what they mean. */
import type { ConformanceSummary } from '../../core/probe/conformance.js';
import type { MovedPair, RobustnessSummary } from '../../core/probe/robustness.js';
import { isConformant, tallyOf, type ProbeRun } from '../../core/probe/run.js';
import { createPalette, formatNumber, formatRatio, singleLine, truncate, type Palette } from '../format.js';
import {
  describeIsolationAccuracy,
  describeNoiseFloor,
  describePassed,
  describeSample,
  describeTarget,
  formatDistance,
  formatMaxDiff,
  formatRate,
  meaningOf,
  NOISE_FLOOR_LABEL,
} from './probe-describe.js';
import { renderFittedTable, wrapKeepingIndent } from '../text-fit.js';

const EXAMPLE_WIDTH = 160;

/** On a terminal (`width` its columns) every line fits it; a file or pipe keeps each line whole. */
export function renderProbeTerminal(
  run: ProbeRun,
  options: { readonly colour: boolean; readonly width?: number },
): string {
  const p = createPalette(options.colour);
  const width = options.width ?? Infinity;
  const lines = [p.bold(`Probe: ${describeTarget(run)}`), describeSample(run)];
  if (run.conformance !== null) lines.push('', ...conformanceLines(run.conformance, width, p));
  if (run.robustness !== null) lines.push('', ...robustnessLines(run.robustness, width, p));
  lines.push('', verdictLine(run, p));
  return `${lines.flatMap((l) => wrapKeepingIndent(l, width)).join('\n')}\n`;
}

export function verdictLine(run: ProbeRun, p: Palette = createPalette(false)): string {
  const parts: string[] = [];
  if (run.conformance !== null)
    parts.push(
      isConformant(run)
        ? p.green(`conformant (${describePassed(tallyOf(run.conformance, run.conformance.checks.length), 'checks')})`)
        : p.red(
            `NOT conformant (${describePassed(tallyOf(run.conformance, run.conformance.checks.length), 'checks')})`,
          ),
    );
  if (run.robustness !== null) {
    const r = run.robustness;
    parts.push(
      r.failed === 0
        ? p.green(`robust (${describePassed(tallyOf(r, r.probes.length), 'probes')})`)
        : p.yellow(
            `not robust (${describePassed(tallyOf(r, r.probes.length), 'probes')}; failing: ${r.probes
              .filter((x) => x.verdict === 'fail')
              .map((x) => x.id)
              .join(', ')})`,
          ),
    );
  }
  return `Verdict: ${parts.join('; ')}`;
}

function mark(status: string, p: Palette): string {
  return status === 'pass' ? p.green('✓') : status === 'fail' ? p.red('✗') : p.dim('–');
}

function conformanceLines(c: ConformanceSummary, width: number, p: Palette): string[] {
  const rows = c.checks.map((k) => [
    mark(k.status, p),
    k.id,
    k.status === 'not_run'
      ? 'not run'
      : k.failed > 0
        ? `${formatRatio(k.failed, k.checked)} failed`
        : `${formatRatio(k.checked, k.checked)} ok`,
    k.rule,
  ]);
  const out = [
    p.bold(`Conformance (docs/system-one.md): ${describePassed(tallyOf(c, c.checks.length), 'checks')}`),
    ...renderFittedTable(['', 'check', 'items', 'rule'], rows, width, {
      align: ['left', 'left', 'right', 'left'],
      styleHeader: p.dim,
    }),
  ];
  for (const k of c.checks) {
    if (k.examples.length === 0) continue;
    const e = k.examples[0]!;
    out.push(
      '',
      `  ${p.red('✗')} ${k.id}: ${e.message}`,
      `      request: ${truncate(singleLine(e.request), EXAMPLE_WIDTH)}`,
      `      answer:  ${truncate(singleLine(e.answer), EXAMPLE_WIDTH)}`,
    );
  }
  return out;
}

function robustnessLines(r: RobustnessSummary, width: number, p: Palette): string[] {
  const rows = r.probes.map((x) => [
    mark(x.verdict === 'no_data' ? 'not_run' : x.verdict, p),
    x.id,
    String(x.pairs),
    formatRate(x.flipRate),
    formatDistance(x.meanTv),
    formatMaxDiff(x.maxAbsDiff),
  ]);
  const out = [
    p.bold(
      `Robustness: ${describePassed(tallyOf(r, r.probes.length), 'probes')} · 95% intervals (flips: Wilson; distance: by case)`,
    ),
    ...renderFittedTable(['', 'probe', 'pairs', 'answers flipped', 'mean distance (TV)', 'max diff'], rows, width, {
      align: ['left', 'left', 'right', 'left', 'left', 'right'],
      styleHeader: p.dim,
    }),
  ];
  out.push(`  ${NOISE_FLOOR_LABEL}: ${describeNoiseFloor(r)}`);
  out.push(p.dim('  each probe is judged against these repeats on the questions it compares'));
  const iso = r.probes.find((x) => x.id === 'isolation');
  const acc = iso === undefined ? null : describeIsolationAccuracy(iso);
  if (acc !== null) out.push(`  isolation: ${acc}`);
  for (const x of r.probes) {
    if (x.lost.requests > 0 || x.lost.decisions > 0)
      out.push(p.yellow(`  ${x.id}: ${x.lost.requests} failed requests, ${x.lost.decisions} answers not compared`));
  }
  out.push('', p.bold('What it means for the benchmark'));
  for (const x of r.probes)
    out.push(`  ${mark(x.verdict === 'no_data' ? 'not_run' : x.verdict, p)} ${meaningOf(x, r)}`);
  const moved = r.probes.filter((x) => x.verdict === 'fail' && x.moved.length > 0);
  if (moved.length > 0) out.push('', p.bold('Moved most'));
  for (const x of moved) for (const m of x.moved) out.push(`  ${x.id}: ${describeMoved(m)}`);
  return out;
}

/** `case cs_000012 question route (options reversed): billing 0.61 → shipping 0.55, distance 0.21` */
export function describeMoved(m: MovedPair): string {
  const top = (name: string, d: readonly number[]) => {
    const i = m.answers.indexOf(name);
    return i < 0 ? name : `${name} ${formatNumber(d[i]!, 2)}`;
  };
  return `case ${m.caseId} question ${m.questionId} (${m.variant}): ${top(m.topBefore, m.before)} → ${top(m.topAfter, m.after)}, distance ${formatNumber(m.tv, 3)}`;
}
