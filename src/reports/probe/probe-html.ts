/**
 * The probe as one self-contained HTML page: verdict cards, the conformance checks with
 * their examples, the robustness probes as bars (share of answers flipped, with the noise
 * floor as the reference tick) beside the table of their numbers, what they mean, and the
 * answers that moved most.
 */
import { tallyOf, type ProbeRun, type ProbeTally } from '../../core/probe/run.js';
import { formatCount } from '../format.js';
import {
  describeIsolationAccuracy,
  describeNotRun,
  describeSample,
  passedOfRan,
  describeTarget,
  formatDistance,
  formatMaxDiff,
  formatRate,
  meaningOf,
} from './probe-describe.js';
import { describeMoved, verdictLine } from './probe-terminal.js';
import { escapeHtml } from '../html/html-escape.js';
import { indentJson } from '../indent-json.js';
import { renderCards, renderFigure, renderPage, renderTable, type Card } from '../html/html-page.js';
import { renderBarChart } from '../html/svg-charts.js';

/** Long JSON lines wrap inside the page instead of widening it. */
const WRAP = 'style="white-space:pre-wrap;overflow-wrap:anywhere;font:.8rem ui-monospace,Menlo,monospace"';

/** A result cell, kept on one line (the mark and its word never part). */
const status = (s: string) =>
  s === 'pass'
    ? { text: '✓ pass', className: 'ok nowrap' }
    : s === 'fail'
      ? { text: '✗ fail', className: 'bad nowrap' }
      : { text: '– not run', className: 'muted nowrap' };

const notRunDetail = (t: ProbeTally) => {
  const detail = describeNotRun(t);
  return detail === null ? {} : { detail };
};

export function renderProbeHtml(run: ProbeRun): string {
  const parts: string[] = [
    `<h1>Probe: ${escapeHtml(describeTarget(run))}</h1>`,
    `<p class="meta">${escapeHtml(describeSample(run))} · probe <code>${escapeHtml(run.id)}</code> · ${escapeHtml(run.createdAt)}</p>`,
    `<p><strong>${escapeHtml(verdictLine(run))}</strong></p>`,
  ];
  const cards: Card[] = [];
  const c = run.conformance;
  const r = run.robustness;
  if (c !== null) {
    const tally = tallyOf(c, c.checks.length);
    cards.push({
      key: 'conformance_passed',
      label: 'conformance checks passed',
      text: passedOfRan(tally),
      value: tally.passed,
      ...notRunDetail(tally),
    });
  }
  if (r !== null) {
    const tally = tallyOf(r, r.probes.length);
    cards.push({
      key: 'robustness_passed',
      label: 'robustness probes passed',
      text: passedOfRan(tally),
      value: tally.passed,
      ...notRunDetail(tally),
    });
    if (r.noiseFloor !== null)
      cards.push({
        key: 'noise_floor_tv',
        label: 'noise floor (mean distance)',
        text: r.noiseFloor.meanTv.value.toFixed(4),
        value: r.noiseFloor.meanTv.value,
        detail: `the larger of the two repeat probes${r.noiseFloor.meanTvFrom === undefined ? '' : `: ${r.noiseFloor.meanTvFrom}`}`,
      });
  }
  parts.push(renderCards(cards));
  if (c !== null) {
    parts.push(
      '<h2>Conformance</h2>',
      '<p class="note">Each rule of the System One wire format, judged on every answer the server gave.</p>',
      renderTable({
        id: 'conformance',
        headers: ['check', 'result', 'items#', 'failed#', 'rule'],
        rows: c.checks.map((k) => [
          k.id,
          status(k.status),
          { text: k.status === 'not_run' ? '' : formatCount(k.checked), value: k.checked },
          { text: String(k.failed), value: k.failed },
          k.rule,
        ]),
      }),
    );
    for (const k of c.checks.filter((x) => x.examples.length > 0)) {
      parts.push(`<h3 class="bad">✗ ${escapeHtml(k.id)}</h3>`);
      for (const e of k.examples)
        parts.push(
          `<p>${escapeHtml(e.message)}</p><p class="muted">request</p><pre class="request" ${WRAP}>${escapeHtml(indentJson(e.request))}</pre><p class="muted">answer</p><pre class="answer" ${WRAP}>${escapeHtml(indentJson(e.answer))}</pre>`,
        );
    }
  }
  if (r !== null) {
    const floor = r.noiseFloor?.flipRate.value ?? null;
    parts.push(
      '<h2>Robustness</h2>',
      renderFigure({
        title: 'Answers flipped by each probe',
        note: 'Share of answers whose most probable option changed; the tick is the noise floor (what the larger of the two repeat probes flips; each probe is judged against the repeats of its own questions). Intervals are 95%: Wilson for flips, a case bootstrap for distance.',
        chart: renderBarChart(
          {
            id: 'flips',
            title: 'Answers flipped per probe',
            desc: 'One bar per robustness probe: the share of answers that flipped.',
          },
          r.probes.map((x) => ({ label: x.id, values: [x.flipRate?.value ?? null], reference: floor })),
          { seriesNames: ['flipped'], valueLabel: 'answers flipped', referenceLabel: 'noise floor' },
        ),
        table: renderTable({
          id: 'robustness',
          headers: ['probe', 'result', 'pairs#', 'answers flipped#', 'mean distance (TV)#', 'max diff#'],
          rows: r.probes.map((x) => [
            x.id,
            status(x.verdict === 'no_data' ? 'not_run' : x.verdict),
            { text: String(x.pairs), value: x.pairs },
            { text: formatRate(x.flipRate), value: x.flipRate?.value ?? null },
            { text: formatDistance(x.meanTv), value: x.meanTv?.value ?? null },
            { text: formatMaxDiff(x.maxAbsDiff), value: x.maxAbsDiff },
          ]),
        }),
      }),
    );
    const iso = r.probes.find((x) => x.id === 'isolation');
    const acc = iso === undefined ? null : describeIsolationAccuracy(iso);
    if (acc !== null) parts.push(`<p>Isolation: ${escapeHtml(acc)}.</p>`);
    parts.push(
      '<h3>What it means for the benchmark</h3>',
      `<ul>${r.probes.map((x) => `<li><strong>${escapeHtml(x.id)}</strong>: ${escapeHtml(meaningOf(x, r))}</li>`).join('')}</ul>`,
    );
    const moved = r.probes.flatMap((x) => x.moved.map((m) => `<li>${escapeHtml(`${x.id}: ${describeMoved(m)}`)}</li>`));
    if (moved.length > 0) parts.push('<h3>Answers that moved most</h3>', `<ul>${moved.join('')}</ul>`);
  }
  return renderPage({ title: `decidekit probe ${run.id}`, body: parts.join('\n') });
}
