/**
 * End to end: the real CLI (`node dist/cli/main.js bench`) against the reference server on
 * loopback, with faults injected. Expected numbers are computed here from the gold.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import type { FaultAction, FaultOptions } from '../../../src/protocol/server/faults.js';
import { openStore } from '../../../src/store/index.js';
import { nonSnakeKeys } from '../../../src/reports/test-support/json-keys.js';
import { writeScaleDataset } from '../../../bench/make-scale-dataset.js';
import { withoutTimings } from '../../support/bench-json.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const SAMPLE = join(ROOT, 'data', 'typed-decisions-sample', 'test.jsonl');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-bench-');

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI asynchronously (the server lives in this process). */
function cli(
  args: string[],
  options: {
    env?: Record<string, string>;
    onStderr?: (text: string, kill: (sig: NodeJS.Signals) => void) => void;
  } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: join(tmp, 'data'), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      options.onStderr?.(stderr, (sig) => child.kill(sig));
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function withServer<T>(
  options: { model?: string; faults?: FaultOptions },
  fn: (server: ReferenceServer) => Promise<T>,
): Promise<T> {
  const server = await startReferenceServer({ host: '127.0.0.1', port: 0, ...options });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

interface GoldRow {
  id: string;
  workflow: string;
  state: unknown;
  questions: Record<string, { type: string; criteria?: Record<string, unknown> | unknown[] }>;
  gold: Record<string, { label: string; probabilities: Record<string, number> }>;
}
const rows: GoldRow[] = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as GoldRow);

function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

describe('decidekit bench', () => {
  it('scores the uniform model with exactly the KL and Brier computed from the gold', async () => {
    // Independent computation: a uniform forecast over each question's answers.
    let kl = 0;
    let brier = 0;
    let n = 0;
    for (const row of rows) {
      for (const [qid, gold] of Object.entries(row.gold)) {
        const answers = Object.keys(gold.probabilities);
        const u = 1 / answers.length;
        for (const a of answers) {
          const g = gold.probabilities[a]!;
          if (g > 0) kl += g * Math.log(g / u);
          brier += (u - g) ** 2;
        }
        expect(row.questions[qid]).toBeDefined();
        n++;
      }
    }
    const out = await withServer({ model: 'uniform' }, (server) =>
      cli(['bench', '--base-url', server.url, '--model', 'uniform', '--parallel', '4', '--json', '--no-store']),
    );
    expect(out.code).toBe(0);
    const doc = JSON.parse(out.stdout) as {
      summary: { kl: number; brier: number; total: number; status: string; errors: number; accuracy: number };
      dataset: { synthetic: boolean };
    };
    expect(doc.summary.total).toBe(n);
    expect(doc.summary.status).toBe('complete');
    expect(doc.summary.errors).toBe(0);
    expect(doc.summary.kl).toBeCloseTo(kl / n, 12);
    expect(doc.summary.brier).toBeCloseTo(brier / n, 12);
    expect(doc.summary.accuracy).toBeGreaterThanOrEqual(0);
    expect(doc.dataset.synthetic).toBe(true);
    // Progress goes to stderr as JSON lines under --json.
    const events = out.stderr.split('\n').filter((l) => l.startsWith('{'));
    expect(events.length).toBeGreaterThan(0);
    expect(() => events.map((e) => JSON.parse(e))).not.toThrow();
    // One key convention across stdout and stderr: snake_case (workflow and question names are data).
    expect(events.flatMap((e) => nonSnakeKeys(JSON.parse(e)))).toEqual([]);
    expect(nonSnakeKeys(JSON.parse(out.stdout), ['by_workflow', 'by_question', 'question_set'])).toEqual([]);
  });

  it('turns timeouts, HTTP errors and malformed answers on chosen cases into error rows', async () => {
    const [a, b, c] = [rows[0]!.id, rows[30]!.id, rows[60]!.id];
    // Case ids are not sent: the server recognises a case by its state.
    const stateOf = (id: string) => JSON.stringify(rows.find((r) => r.id === id)!.state);
    const actions = new Map<string, FaultAction>([
      [stateOf(a), { kind: 'status', status: 500 }],
      [stateOf(b), { kind: 'malformed', variant: 'bad_sum' }],
      [stateOf(c), { kind: 'delay', ms: 3000 }],
    ]);
    const faults: FaultOptions = { rule: (request) => actions.get(JSON.stringify(request.state)) };
    const out = await withServer({ model: 'heuristic', faults }, (server) =>
      cli([
        'bench',
        '--base-url',
        server.url,
        '--parallel',
        '4',
        '--timeout',
        '1',
        '--retries',
        '0',
        '--json',
        '--no-store',
      ]),
    );
    expect(out.code).toBe(1);
    const doc = JSON.parse(out.stdout) as {
      summary: { status: string; error_kinds: Record<string, number>; errors: number; requests: { failed: number } };
      decisions: { case_id: string; status: string; error?: { kind: string; message: string } }[];
    };
    expect(doc.summary.status).toBe('incomplete');
    expect(doc.summary.error_kinds).toEqual({ http: 1, malformed: 1, timeout: 1 });
    expect(doc.summary.errors).toBe(15);
    const failedCases = [...new Set(doc.decisions.filter((d) => d.status === 'failed').map((d) => d.case_id))].sort();
    expect(failedCases).toEqual([a, b, c].sort());
    const malformed = doc.decisions.find((d) => d.case_id === b && d.status === 'failed')!;
    expect(malformed.error!.message).toMatch(/sum/);
  });

  it.each([404, 501])('stops at once when the server answers %i, after at most --parallel requests', async (status) => {
    await withServer({ faults: { forceStatus: status } }, async (server) => {
      const out = await cli(['bench', '--base-url', server.url, '--parallel', '3', '--no-store']);
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(/does not serve decision models/);
      expectNoStackTrace(out.stderr);
      expect(server.metrics().requestsTotal).toBeLessThanOrEqual(3);
    });
  });

  it('keeps finished cases on Ctrl+C, and a resumed run equals a clean one', async () => {
    const store = join(tmp, 'sigint.sqlite');
    await withServer({ model: 'heuristic', faults: { latencyMs: 20 } }, async (server) => {
      let sent = false;
      const interrupted = await cli(['bench', '--base-url', server.url, '--limit', '40', '--store', store, '--json'], {
        onStderr: (text, kill) => {
          if (!sent && text.split('\n').filter((l) => l.startsWith('{')).length >= 10) {
            sent = true;
            kill('SIGINT');
          }
        },
      });
      expect(interrupted.code).toBe(130);
      const s = openStore(store);
      const [head] = s.runs.list();
      const saved = s.cases.savedIds(head!.id).size;
      s.close();
      expect(head!.status).toBe('interrupted');
      expect(saved).toBeGreaterThanOrEqual(10);
      expect(saved).toBeLessThan(40);

      // `--resume RUN` alone: the server, filters and dataset come from the stored run.
      const resumed = await cli(['bench', '--store', store, '--resume', head!.id, '--json']);
      expect(resumed.code).toBe(0);
      const clean = await cli(['bench', '--base-url', server.url, '--limit', '40', '--json', '--no-store']);
      expect(clean.code).toBe(0);
      const strip = (text: string) => {
        const { latency_ms: _l, ...rest } = (JSON.parse(text) as { summary: Record<string, unknown> }).summary;
        return rest;
      };
      expect(strip(resumed.stdout)).toEqual(strip(clean.stdout));
      expect(JSON.parse(resumed.stdout).id).toBe(head!.id);
    });
  });

  it('loses at most the cases in flight when killed outright, and resumes to the clean result', async () => {
    const store = join(tmp, 'sigkill.sqlite');
    await withServer({ model: 'heuristic', faults: { latencyMs: 20 } }, async (server) => {
      let events = 0;
      let sent = false;
      const killed = await cli(
        ['bench', '--base-url', server.url, '--limit', '40', '--store', store, '--parallel', '2', '--json'],
        {
          onStderr: (text, kill) => {
            events = text.split('\n').filter((l) => l.startsWith('{')).length;
            if (!sent && events >= 12) {
              sent = true;
              kill('SIGKILL');
            }
          },
        },
      );
      expect(killed.signal).toBe('SIGKILL');
      const s = openStore(store);
      const [head] = s.runs.list();
      const saved = s.cases.savedIds(head!.id).size;
      s.close();
      // Every case counted in a progress event was checkpointed first.
      expect(saved).toBeGreaterThanOrEqual(12);
      const resumed = await cli([
        'bench',
        '--base-url',
        server.url,
        '--limit',
        '40',
        '--store',
        store,
        '--resume',
        head!.id.slice(0, 15),
        '--json',
      ]);
      expect(resumed.code).toBe(0);
      const clean = await cli(['bench', '--base-url', server.url, '--limit', '40', '--json', '--no-store']);
      expect(withoutTimings(resumed.stdout)).toEqual(withoutTimings(clean.stdout));
    });
  });

  it('a larger run killed outright at --parallel 8 resumes to the clean run, reports written from the store', async () => {
    // 600 cases: the sample repeated with new ids (the scale benchmark's generator, smaller).
    const dataset = join(tmp, 'scale-600.jsonl');
    writeScaleDataset(dataset, 600, 3);
    const store = join(tmp, 'sigkill-600.sqlite');
    const out = join(tmp, 'sigkill-600-out');
    await withServer({ model: 'heuristic', faults: { latencyMs: 2 } }, async (server) => {
      const base = ['bench', '--base-url', server.url, '--dataset', dataset, '--parallel', '8'];
      let sent = false;
      let counted = 0;
      const killed = await cli([...base, '--store', store, '--json'], {
        onStderr: (text, kill) => {
          // The cases the last progress event counted (events come at every hundredth of them).
          counted = Math.max(
            0,
            ...text
              .split('\n')
              .filter((l) => l.startsWith('{"event":"progress"'))
              .map((l) => (JSON.parse(l) as { cases_done: number }).cases_done),
          );
          if (!sent && counted >= 150) {
            sent = true;
            kill('SIGKILL');
          }
        },
      });
      expect(killed.signal).toBe('SIGKILL');
      const s = openStore(store);
      const [head] = s.runs.list();
      const saved = s.cases.savedIds(head!.id, { includeFailed: true }).size;
      s.close();
      expect(head!.status).toBe('running');
      expect(saved).toBeGreaterThanOrEqual(150);
      expect(saved).toBeLessThan(600);

      const resumed = await cli(['bench', '--store', store, '--resume', head!.id, '--json', '--out', out]);
      expect(resumed.code).toBe(0);
      const clean = await cli([...base, '--json', '--no-store']);
      expect(clean.code).toBe(0);
      const resumedDoc = withoutTimings(resumed.stdout);
      expect(resumedDoc.decisions).toHaveLength(3000);
      expect(resumedDoc).toEqual(withoutTimings(clean.stdout));
      // The --out JSON is the same document as stdout, and the Markdown trace has every case.
      expect(readFileSync(join(out, `${head!.id}.json`), 'utf8')).toBe(resumed.stdout);
      const markdown = readFileSync(join(out, `${head!.id}.md`), 'utf8');
      expect(markdown).toContain('(3,000 decisions in 600 cases)');
      expect(markdown.match(/^\S+~r\d+ {2}/gm)).toHaveLength(600);
    });
  });

  it('refuses to resume against another model, naming the difference', async () => {
    const store = join(tmp, 'refuse.sqlite');
    await withServer({ model: 'uniform' }, async (server) => {
      const first = await cli([
        'bench',
        '--base-url',
        server.url,
        '--model',
        'uniform',
        '--limit',
        '5',
        '--store',
        store,
        '--json',
      ]);
      expect(first.code).toBe(0);
      const id = (JSON.parse(first.stdout) as { id: string }).id;
      const again = await cli([
        'bench',
        '--base-url',
        server.url,
        '--model',
        'prior',
        '--limit',
        '5',
        '--store',
        store,
        '--resume',
        id,
      ]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/cannot resume/);
      expect(again.stderr).toMatch(/model/);
      expectNoStackTrace(again.stderr);
    });
  });

  it('never writes the API key or URL credentials to the store, reports or output', async () => {
    const key = 'sk-planted-SECRET-4242';
    const store = join(tmp, 'secret.sqlite');
    const outDir = join(tmp, 'secret-out');
    await withServer({ model: 'uniform' }, async (server) => {
      // A query or fragment is refused before any work (base-url-checked-up-front.test.ts
      // shows that refusal keeps their values out of the message): the key rides in the
      // URL's password and in the environment here.
      const url = server.url.replace('http://', `http://user:${key}@`) + '/';
      const out = await cli(
        ['bench', '--base-url', url, '--model', 'uniform', '--limit', '3', '--store', store, '--out', outDir],
        { env: { DECIDEKIT_API_KEY: key } },
      );
      expect(out.code).toBe(0);
      expect(out.stdout + out.stderr).not.toContain(key);
      const files = [store, `${store}-wal`, ...readdirSync(outDir).map((f) => join(outDir, f))];
      for (const f of files) {
        let bytes: Buffer;
        try {
          bytes = readFileSync(f);
        } catch {
          continue;
        }
        expect(bytes.includes(key), f).toBe(false);
      }
    });
  });

  it('benchmarks the embedded reference server on the synthetic sample with no set-up', async () => {
    const out = await cli(['bench', '--limit', '8', '--no-store']);
    expect(out.code).toBe(0);
    expect(out.stderr.split('\n')[0]).toMatch(/built-in reference server/);
    expect(out.stdout).toMatch(/synthetic sample/);
    expect(out.stdout).toMatch(/Accuracy/);
  });

  it('rejects bad options with a usage error', async () => {
    const out = await cli(['bench', '--parallel', '0']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/--parallel/);
    const missing = await cli(['bench', '--dataset', join(tmp, 'nope.jsonl'), '--no-store']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.jsonl/);
    expectNoStackTrace(missing.stderr);
  });
});
