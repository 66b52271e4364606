/**
 * End to end: `decidekit probe` (and `serve --violate`) through the real CLI function
 * `runCli(argv, io)` in process, against the real reference server on loopback and a real
 * SQLite store.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { CONFORMANCE_CHECK_IDS } from '../../../src/core/probe/conformance.js';
import { ROBUSTNESS_PROBE_IDS } from '../../../src/core/probe/robustness.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import type { Violation } from '../../../src/protocol/server/violations.js';
import { nonSnakeKeys } from '../../../src/reports/test-support/json-keys.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-probe-');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

const env = { XDG_DATA_HOME: join(tmp, 'xdg') };
const probe = (argv: string[]) => runCliInProcess(['probe', ...argv], { env, cwd: ROOT });

async function violatingServer(violations: Violation[]): Promise<string> {
  const server = await startReferenceServer({ port: 0, violations, priorTable: null, maxBodyBytes: 64 * 1024 });
  closers.push(() => server.close());
  return server.url;
}

function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(text).not.toContain('internal error');
}

describe('decidekit probe', () => {
  it('with no arguments probes the built-in server: conformant, robust, kept in the store and listed by runs list', async () => {
    const r = await probe([]);
    expect(r.stderr).toContain('probing the built-in reference server (model heuristic');
    expect(r.code).toBe(0);
    for (const id of [...CONFORMANCE_CHECK_IDS, ...ROBUSTNESS_PROBE_IDS])
      expect(r.stdout).toMatch(new RegExp(`✓ +${id} `));
    expect(r.stdout).toContain('50 cases of the synthetic sample (seed 1)');
    expect(r.stdout).toContain('Verdict: conformant (20/20 checks pass); robust (6/6 probes pass)');
    expect(r.stdout).toMatch(/noise floor \(the larger of the two repeat probes\): determinism: 0\.0% \[0\.0%, /);
    const id = /probe (probe-\d{8}-\d{6}-[0-9a-f]{4}) saved/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();

    const list = await runCliInProcess(['runs', 'list'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('Probes (server conformance and robustness; never scored)');
    expect(list.stdout).toMatch(new RegExp(`${id} .* heuristic +built-in +50 +20/20 +6/6 +yes`));
    const json = JSON.parse((await runCliInProcess(['runs', 'list', '--json'], { env })).stdout);
    expect(json.probes).toHaveLength(1);
    expect(json.probes[0]).toMatchObject({ kind: 'probe', id, cases: 50, conformance: { passed: 20, failed: 0 } });
    expect(nonSnakeKeys(json.probes)).toEqual([]);

    const shown = await runCliInProcess(['runs', 'show', id!.slice(0, 20)], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(r.stdout);
    const missing = await runCliInProcess(['runs', 'show', 'probe-19990101'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no probe "probe-19990101"');
  });

  it('exits 1 on a conformance failure, with the example request and the offending answer in snake_case JSON', async () => {
    const url = await violatingServer(['choice-not-argmax']);
    const r = await probe(['--base-url', url, '--cases', '8', '--seed', '4', '--no-store', '--json']);
    expectNoStackTrace(r.stderr);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(nonSnakeKeys(doc)).toEqual([]);
    expect(doc.conformant).toBe(false);
    const failed = doc.conformance.checks.filter((c: { status: string }) => c.status === 'fail');
    expect(failed.map((c: { id: string }) => c.id)).toEqual(['choice-is-top']);
    const example = failed[0].examples[0];
    expect(example.message).toMatch(/"choice" is "[^"]+" \(p=[0-9.]+\) but the top probability is [0-9.]+/);
    expect(JSON.parse(example.request)).toHaveProperty('questions');
    expect(example.answer).toContain('"choice"');
    expect(doc.config.case_ids).toHaveLength(8);
    expect(doc.robustness.probes.every((p: { verdict: string }) => p.verdict === 'pass')).toBe(true);
    // No flip: the rate is 0 and its Wilson interval [0, high] still bounds it.
    const [low, high] = doc.robustness.probes[0].flip_rate_ci;
    expect([doc.robustness.probes[0].flip_rate, low]).toEqual([0, 0]);
    expect(high).toBeGreaterThan(0);
    expect(doc.robustness.noise_floor).toMatchObject({ flip_rate: 0, mean_tv: 0, deterministic: true });
  });

  it('reports a robustness failure with its numbers and meaning, and still exits 0 (only conformance fails a probe)', async () => {
    const url = await violatingServer(['first-option-bias']);
    const r = await probe(['--base-url', url, '--cases', '12', '--only', 'robustness', '--no-store']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('Conformance');
    expect(r.stdout).toMatch(/✗ +option-order +\d+ +\d+\.\d% \[\d+\.\d%, \d+\.\d%\]/);
    expect(r.stdout).toMatch(/Option order moves \d+\.\d% of choice answers: compare choice accuracy with care/);
    expect(r.stdout).toMatch(/option-order: case \S+ question \S+ \(options (reversed|permuted \(\d\))\): /);
    expect(r.stdout).toContain('Verdict: not robust (5/6 probes pass; failing: option-order)');
  });

  it('counts checks and probes as passed of those that ran in every report and in runs list', async () => {
    // Every answer malformed: the robustness probes that need a first answer to compare have nothing.
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { malformedRate: 1 } });
    closers.push(() => server.close());
    const store = join(tmp, 'counts.sqlite');
    const out = join(tmp, 'counts-reports');
    const r = await probe(['--base-url', server.url, '--cases', '6', '--store', store, '--out', out, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      id: string;
      conformance: { checks: { status: string }[] };
      robustness: { probes: { verdict: string }[] };
    };
    const count = (statuses: string[], pass: string, notRun: string) => ({
      passed: statuses.filter((x) => x === pass).length,
      ran: statuses.filter((x) => x !== notRun).length,
      notRun: statuses.filter((x) => x === notRun).length,
    });
    const c = count(
      doc.conformance.checks.map((k) => k.status),
      'pass',
      'not_run',
    );
    const rb = count(
      doc.robustness.probes.map((p) => p.verdict),
      'pass',
      'no_data',
    );
    expect(rb.notRun).toBeGreaterThan(0);
    const checks = `${c.passed}/${c.ran} checks pass${c.notRun > 0 ? `, ${c.notRun} not run` : ''}`;
    const probes = `${rb.passed}/${rb.ran} probes pass, ${rb.notRun} not run`;

    const shown = await runCliInProcess(['runs', 'show', doc.id, '--store', store], { env });
    expect(shown.stdout).toContain(`Verdict: NOT conformant (${checks}); not robust (${probes}; failing: `);
    expect(shown.stdout).toContain(`Conformance (docs/system-one.md): ${checks}\n`);
    expect(shown.stdout).toContain(`Robustness: ${probes} · `);
    const list = await runCliInProcess(['runs', 'list', '--store', store], { env });
    expect(list.stdout).toMatch(new RegExp(`${doc.id} .* ${c.passed}/${c.ran} +${rb.passed}/${rb.ran} +no`));

    const read = (ext: string) => readFileSync(join(out, `${doc.id}${ext}`), 'utf8');
    expect(read('.md')).toContain(`**Verdict: NOT conformant (${checks}); not robust (${probes}; failing: `);
    const html = read('.html');
    expect(html).toContain(`NOT conformant (${checks}); not robust (${probes}; failing: `);
    expect(html).toContain(
      `data-key="robustness_passed" data-value="${rb.passed}"><div class="k">robustness probes passed</div><div class="v">${rb.passed}/${rb.ran}</div><div class="d">${rb.notRun} not run</div>`,
    );
  });

  it('writes JSON, Markdown and HTML with --out', async () => {
    const out = join(tmp, 'reports');
    const url = await violatingServer(['output-tokens']);
    const r = await probe(['--base-url', url, '--cases', '5', '--only', 'conformance', '--no-store', '--out', out]);
    expect(r.code).toBe(1);
    const files = readdirSync(out).sort();
    expect(files.map((f) => f.replace(/^unsaved-probe-\d+/, 'P'))).toEqual(['P.html', 'P.json', 'P.md']);
    const md = readFileSync(
      join(
        out,
        files.find((f) => f.endsWith('.md'))!,
      ),
      'utf8',
    );
    expect(md).toContain('### ✗ output-tokens-zero');
    expect(md).toContain('usage.output_tokens is 1');
    const html = readFileSync(
      join(
        out,
        files.find((f) => f.endsWith('.html'))!,
      ),
      'utf8',
    );
    expect(html).toContain('✗ output-tokens-zero');
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(
      JSON.parse(
        readFileSync(
          join(
            out,
            files.find((f) => f.endsWith('.json'))!,
          ),
          'utf8',
        ),
      ).robustness,
    ).toBeNull();
  });

  it('stops with exit 1 and a clear message when nothing listens', async () => {
    const closed = await startReferenceServer({ port: 0, priorTable: null });
    const port = closed.port;
    await closed.close();
    const r = await probe(['--base-url', `http://127.0.0.1:${port}`, '--no-store', '--cases', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`decidekit probe: stopped: nothing is listening at 127.0.0.1:${port}`);
    expectNoStackTrace(r.stderr);
  });

  it('refuses bad options as usage errors (exit 2)', async () => {
    expect((await probe(['--only', 'speed'])).code).toBe(2);
    expect((await probe(['--cases', '0'])).code).toBe(2);
    const serve = await runCliInProcess(['serve', '--port', '0', '--violate', 'drift,no-such-rule'], { env });
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('--violate: unknown rule "no-such-rule" (known: missing-answer,');
  });

  it('serve --violate starts a server that says which rules it breaks', async () => {
    const controller = new AbortController();
    const r = runCliInProcess(['serve', '--port', '0', '--violate', 'drift, first-option-bias'], {
      env,
      signal: controller.signal,
      onStderr: (text) => {
        if (text.includes('breaking protocol rules')) controller.abort();
      },
    });
    const done = await r;
    expect(done.code).toBe(130); // stopped as by Ctrl+C
    expect(done.stderr).toContain('decidekit serve: breaking protocol rules on purpose: drift, first-option-bias');
  });

  it('says so when --cases asks for more cases than the dataset has, and probes them all', async () => {
    const r = await probe(['--cases', '1000', '--only', 'conformance', '--no-store']);
    expect(r.code).toBe(0);
    const all =
      /probing the built-in reference server \(model heuristic, [^)]+\): (\d+) cases \(all of the synthetic sample: --cases 1000 asks for more than it has\), about [\d,]+ requests, one at a time/.exec(
        r.stderr,
      );
    expect(all).not.toBeNull();
    const n = Number(all![1]);
    expect(n).toBeLessThan(1000);
    expect(r.stdout).toContain(`${n} cases of the synthetic sample (all it has; --cases 1000 asked) (seed 1)`);
    const one = await probe(['--cases', '1', '--only', 'conformance', '--no-store']);
    expect(one.stderr).toMatch(/: 1 case, about \d+ requests, one at a time/);
    expect(one.stdout).toMatch(/^1 case of the synthetic sample \(seed 1\)/m);
  });

  it('stops after its first five requests all time out against a server that accepts and never answers', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer((socket) => socket.on('error', () => {}).resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const port = (silent.address() as { port: number }).port;
    const t0 = Date.now();
    const r = await probe(['--base-url', `http://127.0.0.1:${port}`, '--timeout', '0.2', '--cases', '1', '--no-store']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'decidekit probe: stopped: the first 5 requests all timed out (no answer within 0.2 s each): the server accepts connections but does not answer',
    );
    expect(Date.now() - t0).toBeLessThan(5000);
    expectNoStackTrace(r.stderr);
    for (const bad of ['0', '-1', 'abc']) expect((await probe(['--timeout', bad])).code).toBe(2);
  });

  it('finishes its progress with a line that says every case is done', async () => {
    const r = await probe(['--cases', '20', '--only', 'robustness', '--no-store']);
    expect(r.code).toBe(0);
    const progress = r.stderr.split('\n').filter((l) => /^ {2}\d+\/20 cases$/.test(l));
    expect(progress).toEqual([
      '  2/20 cases',
      '  4/20 cases',
      '  6/20 cases',
      '  8/20 cases',
      '  10/20 cases',
      '  12/20 cases',
      '  14/20 cases',
      '  16/20 cases',
      '  18/20 cases',
      '  20/20 cases',
    ]);
  });

  it('on Ctrl+C says it was interrupted and that nothing was kept, and exits 130', async () => {
    const probesKept = async () =>
      (JSON.parse((await runCliInProcess(['runs', 'list', '--json'], { env })).stdout) as { probes: unknown[] }).probes
        .length;
    const before = await probesKept();
    const controller = new AbortController();
    const interrupted = await runCliInProcess(['probe', '--cases', '40', '--only', 'robustness'], {
      env,
      cwd: ROOT,
      signal: controller.signal,
      onStderr: (text) => {
        if (text.includes('  8/40 cases')) controller.abort();
      },
    });
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toMatch(
      /decidekit probe: interrupted after (8|9|10) of 40 cases; nothing was kept \(a probe is saved only when it finishes\)\n$/,
    );
    expect(interrupted.stdout).toBe('');
    expectNoStackTrace(interrupted.stderr);
    expect(await probesKept()).toBe(before);
  });
});
