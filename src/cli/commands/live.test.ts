/**
 * `decidekit live` away from a terminal, in process: JSON and plain lines per probe, the
 * `--record` file, and the checks before any screen opens. Against the real reference server
 * on loopback; expected values are recomputed here from the recorded answers and gold.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreDecision } from '../../core/decision-score.js';
import { pollOrder } from '../../core/live/poll-order.js';
import { loadBenchDataset } from '../../datasets/typed-decisions/load-bench-dataset.js';
import { startReferenceServer, type ReferenceServerOptions } from '../../protocol/server/server.js';
import { runCliInProcess } from '../test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-live-');

/** Runs `decidekit live ...` until `lines` lines are on stdout, then aborts it (Ctrl+C). */
async function live(args: string[], lines: number) {
  const controller = new AbortController();
  const { code, stdout, stderr } = await runCliInProcess(['live', ...args], {
    env: { XDG_CACHE_HOME: join(tmp, 'cache') },
    cwd: tmp,
    signal: controller.signal,
    onStdout: (text) => {
      if (text.split('\n').length - 1 >= lines) controller.abort();
    },
  });
  return { code, stdout, stderr, lines: stdout.split('\n').filter((l) => l !== '') };
}

async function withServer<T>(options: ReferenceServerOptions, fn: (url: string) => Promise<T>): Promise<T> {
  const server = await startReferenceServer({ host: '127.0.0.1', port: 0, ...options });
  try {
    return await fn(server.url);
  } finally {
    await server.close();
  }
}

interface RecordLine {
  case_id: string;
  request: { status: string; message?: string };
  decisions: Array<{
    status: string;
    answers: string[];
    gold_label: string;
    gold_probabilities: number[];
    probabilities?: number[];
    predicted?: string;
    correct?: boolean;
    kl?: number;
    brier?: number;
  }>;
}

describe('decidekit live (not a terminal)', () => {
  it('probes in the seeded order, one JSON object per probe, and records every outcome without the key', async () => {
    const sample = await loadBenchDataset({ kind: 'sample' });
    const expectedIds = pollOrder(sample.cases.length).map((i) => sample.cases[i]!.id);
    const record = join(tmp, 'session.jsonl');
    const secret = 'sk-live-secret-4242';
    const r = await withServer({ metrics: true, faults: { seed: 3, failRate: 0.3 } }, (url) =>
      live(['--base-url', url, '--interval', '0', '--json', '--record', record, '--api-key', secret], 12),
    );
    expect(r.code).toBe(130);
    expect(r.lines).toHaveLength(12);
    const probes = r.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(probes.map((p) => p['case_id'])).toEqual(expectedIds.slice(0, 12));
    expect(probes.map((p) => p['probe'])).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));

    const text = readFileSync(record, 'utf8');
    expect(text).not.toContain(secret);
    const recorded = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RecordLine);
    expect(recorded.map((x) => x.case_id)).toEqual(expectedIds.slice(0, 12));
    expect(recorded.some((x) => x.request.status === 'failed')).toBe(true);
    expect(recorded.some((x) => x.request.status === 'answered')).toBe(true);

    // Scores as bench computes them, recomputed from the recorded distributions.
    let correct = 0;
    let total = 0;
    let answered = 0;
    for (const x of recorded) {
      for (const d of x.decisions) {
        total++;
        if (d.status !== 'answered') continue;
        answered++;
        const gold = { labelIndex: d.answers.indexOf(d.gold_label), probabilities: d.gold_probabilities };
        const s = scoreDecision(gold, d.probabilities!);
        expect(d.predicted).toBe(d.answers[s.predictedIndex]);
        expect(d.correct).toBe(s.correct);
        expect(d.kl).toBe(s.kl);
        expect(d.brier).toBe(s.brier);
        if (s.correct) correct++;
      }
    }
    const last = probes.at(-1) as {
      window: { n: number; accuracy: number; answered: number; answered_accuracy: number };
      session: { decisions: number };
    };
    expect(last.window.n).toBe(total);
    expect(last.window.accuracy).toBeCloseTo(correct / total, 12);
    // Failed probes are misses in the accuracy, left out of the answered accuracy.
    expect(answered).toBeLessThan(total);
    expect(last.window.answered).toBe(answered);
    expect(last.window.answered_accuracy).toBeCloseTo(correct / answered, 12);
    expect(last.session.decisions).toBe(total);
  });

  it('makes the missing folders of --record when it opens the record', async () => {
    const record = join(tmp, 'new', 'deeper', 'session.jsonl');
    await withServer({}, (url) => live(['--base-url', url, '--interval', '0', '--json', '--record', record], 2));
    expect(
      readFileSync(record, 'utf8')
        .split('\n')
        .filter((l) => l !== '').length,
    ).toBeGreaterThan(0);
  });

  it('writes a record whose documented DuckDB query gives the session accuracy the monitor showed', async () => {
    const record = join(tmp, 'for-duckdb.jsonl');
    const r = await withServer({ faults: { seed: 3, failRate: 0.3 } }, (url) =>
      live(['--base-url', url, '--interval', '0', '--json', '--record', record], 15),
    );
    expect(r.code).toBe(130);
    const last = JSON.parse(r.lines.at(-1)!) as { session: { decisions: number; accuracy: number } };
    const docs = readFileSync(new URL('../../../docs/file-formats.md', import.meta.url), 'utf8');
    const query = /duckdb -c "([^"]+)"/.exec(docs.slice(docs.indexOf('## Live record')))![1]!;
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const rows = (
      await connection.runAndReadAll(query.replace("'session.jsonl'", `'${record.replaceAll("'", "''")}'`))
    ).getRowObjectsJson();
    connection.closeSync();
    const recorded = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .flatMap((l) => (JSON.parse(l) as RecordLine).decisions);
    const answered = recorded.filter((d) => d.status === 'answered');
    expect(recorded.length).toBeGreaterThan(answered.length);
    expect(Number(rows[0]!['decisions'])).toBe(last.session.decisions);
    expect(rows[0]!['accuracy']).toBeCloseTo(last.session.accuracy, 12);
    expect(rows[0]!['answered_accuracy']).toBeCloseTo(answered.filter((d) => d.correct).length / answered.length, 12);
  });

  it('says "model unreachable" from the third failed probe in a row and keeps probing', async () => {
    const r = await withServer({ faults: { failRate: 1 } }, (url) =>
      live(['--base-url', url, '--interval', '0', '--json'], 4),
    );
    expect(r.code).toBe(130);
    const probes = r.lines.map(
      (l) => JSON.parse(l) as { unreachable: boolean; request: { status: string; message: string } },
    );
    expect(probes.map((p) => p.unreachable)).toEqual([false, false, true, true]);
    expect(probes.every((p) => p.request.status === 'failed' && p.request.message.startsWith('HTTP 500'))).toBe(true);
    const plain = await withServer({ faults: { failRate: 1 } }, (url) =>
      live(['--base-url', url, '--interval', '0'], 3),
    );
    expect(plain.lines[1]).not.toContain('model unreachable');
    expect(plain.lines[2]).toContain('| model unreachable (3 failed probes in a row)');
    expect(plain.lines[2]).toContain('window 0.0% accuracy (n/a of answered)');
  });

  it('prints one plain line per probe', async () => {
    const r = await withServer({}, (url) => live(['--base-url', url, '--interval', '0'], 3));
    expect(r.code).toBe(130);
    expect(r.lines[0]).toMatch(/^probe 1 \S+ \(\w+\): \d\/\d match gold, [\d.]+ ms, [\d,]+ input tokens \| window /);
    expect(r.lines[2]).toMatch(/^probe 3 /);
    expect(r.lines[2]).toMatch(/ \| window [\d.]+% accuracy \([\d.]+% of answered\), ECE /);
    expect(r.stderr).toContain('decidekit live: probing http://127.0.0.1:');
  });

  it('starts the built-in server with /metrics when no --base-url is given', async () => {
    const r = await live(['--json', '--interval', '0'], 2);
    expect(r.code).toBe(130);
    expect(r.lines).toHaveLength(2);
    expect(JSON.parse(r.lines[0]!)).toMatchObject({ probe: 1, request: { status: 'answered' } });
  });

  for (const status of [404, 405, 501]) {
    it(`stops before any screen on HTTP ${status}, exit 1`, async () => {
      const record = join(tmp, `refused-${status}.jsonl`);
      const r = await withServer({ faults: { forceStatus: status } }, (url) =>
        live(['--base-url', url, '--record', record], 1),
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^decidekit live: stopped before the screen opened: server does not serve decision models/,
      );
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('stops before any screen when nothing listens, exit 1', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const r = await live(['--base-url', `http://127.0.0.1:${port}`], 1);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`nothing is listening at 127.0.0.1:${port}`);
  });

  it('refuses a --record file that can never be written, and a bad --metrics-url, as usage errors', async () => {
    // Under a file (this test's own): no folder can be made there.
    const r = await live(['--record', join(import.meta.dirname, 'live.test.ts', 'x.jsonl')], 1);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `--record ${join(import.meta.dirname, 'live.test.ts', 'x.jsonl')}: a part of the path is a file`,
    );
    const k = await live(['--api-key', 'sk-line\nbreak-99'], 1);
    expect(k.code).toBe(2);
    expect(k.stderr).toContain('--api-key contains a line break');
    expect(k.stderr).not.toContain('break-99');
    const m = await live(['--metrics-url', 'ftp://x'], 1);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain('--metrics-url "ftp://x/" is not an http(s) URL');
  });
});
