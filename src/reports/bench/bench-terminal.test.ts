import { describe, expect, it } from 'vitest';
import { renderBenchTerminal } from './bench-terminal.js';
import { stripAnsi, visibleWidth } from '../format.js';
import {
  createFailedRun,
  createManyDisagreementsRun,
  createMixedRun,
  createRunStatistics,
  TYPED_DECISIONS,
} from '../../core/bench/test-support/bench-run-fixture.js';

const ANSI = /\u001b\[/;

describe('renderBenchTerminal', () => {
  const run = createMixedRun();
  const plain = renderBenchTerminal(run, { colour: false, statistics: createRunStatistics(run) });

  it('matches the reviewed snapshot (colour off)', async () => {
    await expect(plain).toMatchFileSnapshot('./__snapshots__/bench-terminal.mixed.txt');
  });

  it('writes no ANSI codes when colour is off, and only adds codes when it is on', () => {
    expect(plain).not.toMatch(ANSI);
    expect(renderBenchTerminal(createFailedRun(), { colour: false })).not.toMatch(ANSI);
    const coloured = renderBenchTerminal(run, { colour: true, statistics: createRunStatistics(run) });
    expect(coloured).toMatch(ANSI);
    expect(stripAnsi(coloured)).toBe(plain);
  });

  it('shows accuracy by type and by workflow with correct/total, KL, Brier and a ten-cell bar', () => {
    expect(plain).toMatch(/^ {2}noul +2\/5 +40\.0% +████░░░░░░ +0\.379 +0\.281$/m);
    expect(plain).toMatch(/^ {2}customer_service +4\/6 +66\.7% +███████░░░ +0\.584 +0\.320$/m);
    expect(plain).toMatch(/^ {2}security_incidents +4\/9 +44\.4% +████░░░░░░ +0\.400 +0\.194$/m);
  });

  it('shows the reliability table with a signed gap', () => {
    expect(plain).toMatch(/^ {2}0\.9–1\.0 +3 +0\.947 +0\.333 +-0\.613$/m);
    expect(plain).toMatch(/^ {2}0\.5–0\.6 +2 +0\.525 +1\.000 +\+0\.475$/m);
  });

  it('shows each cause of failure once, in full, wrapped to the width', () => {
    const run = createMixedRun();
    const reason =
      'HTTP 400: unknown model laya: this server serves heuristic, prior, uniform and zero; pick one of those with --model';
    const failed = run.cases.map((c) =>
      c.request.status === 'failed'
        ? c
        : {
            ...c,
            request: {
              status: 'failed' as const,
              latencyMs: 1,
              failure: { kind: 'request_rejected' as const, message: reason },
            },
          },
    );
    const text = stripAnsi(renderBenchTerminal({ ...run, cases: failed }, { colour: false, width: 60 }));
    expect(text.match(/request_rejected ×4/g)).toHaveLength(1);
    const joined = text.replace(/\n +/g, ' ');
    expect(joined).toContain(reason);
    const block = text.slice(text.indexOf('request_rejected ×4'), text.indexOf('\nLatency'));
    expect(block.split('\n').length).toBeGreaterThan(1);
    for (const line of text.split('\n').filter((l) => block.includes(l.trim())))
      expect(visibleWidth(line)).toBeLessThanOrEqual(60);
  });

  it('shows the headline lines, rating, requests, latency, tokens and duration', () => {
    for (const line of [
      /^Accuracy +53\.3% {2}\[\d+\.\d%, \d+\.\d%\] {2}\(8\/15 decisions; 3 errors count as misses\)$/m,
      /^KL from gold +0\.492 {2}\[0\.\d{3}, 0\.\d{3}\]$/m,
      /^Brier +0\.257 {2}\[0\.\d{3}, 0\.\d{3}\]$/m,
      /^Log loss +\d\.\d{3} {2}\[\d\.\d{3}, \d\.\d{3}\]$/m,
      /^ECE +0\.372 /m,
      /^Mean confidence +71\.4%$/m,
      /^Confident disagreements +2 /m,
      /^Rating +★★☆ above the 47\.0% prior/m,
      /^Requests +5 sent, 4 answered, 1 failed \(timeout 1\) · status incomplete$/m,
      /^ +timeout ×1 \(first security_incidents_000003\): no answer within 30 s$/m,
      /^Latency +p50 276 ms · p95 1\.34 s · mean 556 ms/m,
      /^Input tokens +3,679$/m,
      /^Duration +12\.3 s$/m,
    ]) {
      expect(plain).toMatch(line);
    }
    expect(plain).not.toContain('Cost');
  });

  it('says a synthetic sample is not Typed Decisions scores, and credits a real dataset plainly', () => {
    expect(plain).toContain('synthetic sample — not Typed Decisions scores');
    const real = renderBenchTerminal(createMixedRun({ dataset: TYPED_DECISIONS }), { colour: false });
    expect(real).not.toContain('ynthetic');
    expect(real).toContain(
      'Data: LocalLLaMA/typed-decisions (test split, revision e039ebffcc280174dd354227424fb2b249f191de, license Apache-2.0)\n',
    );
    expect(real).toContain('\nTyped Decisions (LocalLLaMA/typed-decisions, revision e039ebf, Apache-2.0)\n');
    expect(plain).toContain(
      'Data: decidekit/typed-decisions-synthetic-sample (test split, revision sample-v1, license Apache-2.0)\n',
    );
    expect(plain).toMatch(/^Rating .*only indicative on the synthetic sample/m);
    expect(real).not.toContain('only indicative');
  });

  it('says a filtered run is filtered', () => {
    const filtered = renderBenchTerminal(createMixedRun({ config: { filters: { limit: 2, workflow: null } } }), {
      colour: false,
    });
    expect(filtered).toContain('filtered run (limit 2): not comparable with a full run');
    expect(plain).not.toContain('filtered run');
  });

  it('reads "Incomplete: no successful cases" when nothing was answered, with n/a metrics and no reliability table', () => {
    const text = renderBenchTerminal(createFailedRun(), { colour: false });
    expect(text).toMatch(/^Rating +Incomplete: no successful cases$/m);
    expect(text).toMatch(/^KL from gold +n\/a {2}\(no decision was answered \(\d+ failed\)\)$/m);
    expect(text).toMatch(/^Mean confidence +n\/a {2}\(no decision was answered/m);
    expect(text).toMatch(/^Latency +n\/a {2}\(no request completed\)$/m);
    expect(text).not.toContain('Reliability');
    expect(text).not.toMatch(/^Input tokens/m);
  });

  it('shows null input tokens as absent, not 0', () => {
    const text = renderBenchTerminal(createManyDisagreementsRun(1), { colour: false });
    expect(text).not.toMatch(/^Input tokens/m);
    expect(text).not.toContain('3,679');
  });

  it('shows cost with a price', () => {
    const text = renderBenchTerminal(createMixedRun({ config: { pricePerMtokUsd: 0.5 } }), { colour: false });
    expect(text).toMatch(/^Cost +\$0\.00184 at \$0\.500\/M input tokens · \$0\.000230 per correct decision$/m);
  });

  it('drops the bars on a narrow terminal and keeps table lines within the width', () => {
    const narrow = renderBenchTerminal(run, { colour: false, width: 50 });
    expect(narrow).not.toContain('█');
    const tableLines = narrow.split('\n').filter((l) => l.startsWith('  ') && !l.includes('gap ='));
    expect(tableLines.length).toBeGreaterThan(10);
    for (const line of tableLines) expect(visibleWidth(line)).toBeLessThanOrEqual(50);
  });

  it('names the built-in reference server instead of its throwaway endpoint', () => {
    const embedded = createMixedRun({
      config: {
        embeddedServer: { model: 'heuristic' },
        model: null,
        endpoint: { scheme: 'embedded', host: 'reference-server', port: 0, path: '/v1/systemone' },
      },
    });
    const text = renderBenchTerminal(embedded, { colour: false });
    expect(text).toContain(
      'Answered by model heuristic on the built-in reference server · parallel 4, timeout 30 s, retries 1',
    );
    expect(text).not.toContain('embedded://');
  });

  it('redacts the host when asked', () => {
    const text = renderBenchTerminal(run, { colour: false, redactHost: true });
    expect(text).toContain('http://<redacted>:8084/v1/systemone');
    expect(text).not.toContain('decider.internal');
  });
});
