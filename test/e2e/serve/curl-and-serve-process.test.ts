/**
 * Interop: a foreign HTTP client (`curl`) against the reference server, and the real
 * `decidekit serve` process (`node dist/cli/main.js`, built by `npm run build`).
 */
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDecideResponse } from '../../../src/protocol/wire/decide-response.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';
import { SPEC_EXAMPLE_REQUEST } from '../../../src/protocol/test-support/fixtures.js';
import { parseWireQuestions } from '../../../src/protocol/wire/questions-json.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);

/** curl's body and status (written last by -w). */
async function curl(...args: string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await run('/usr/bin/curl', ['-sS', '--max-time', '10', '-w', '\n%{http_code}', ...args]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

function postArgs(url: string, body: unknown): string[] {
  return [
    '-X',
    'POST',
    `${url}/v1/systemone`,
    '-H',
    'Content-Type: application/json',
    '--data-binary',
    JSON.stringify(body),
  ];
}

const questions = (() => {
  const r = parseWireQuestions(SPEC_EXAMPLE_REQUEST.questions, 'questions');
  if (!r.ok) throw new Error('fixture');
  return r.questions;
})();

describe('curl against the reference server', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ port: 0, priorTable: null, router: true });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the spec example request, and the strict parser accepts the answer', async () => {
    for (const model of ['heuristic', 'uniform', 'prior']) {
      const r = await curl(...postArgs(server.url, { ...SPEC_EXAMPLE_REQUEST, model }));
      expect(r.status).toBe(200);
      const parsed = parseDecideResponse(JSON.parse(r.body), questions);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(parsed.value.model).toBe(model);
    }
  });

  it('rejects the example model name "laya" with a 400 naming the built-in models', async () => {
    const r = await curl(...postArgs(server.url, SPEC_EXAMPLE_REQUEST));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.message).toMatch(/unknown model "laya".*heuristic, prior, uniform, zero, judge/);
  });
});

describe('decidekit serve', () => {
  it('prints its URL, answers the spec example request exactly as written, and shuts down on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--metrics'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const line = out.split('\n')[0]!;
        if (out.includes('\n')) resolve(line.trim());
      });
      setTimeout(() => reject(new Error(`no URL line; stderr: ${stderr}`)), 10_000);
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // The example names model "laya": a single-model server ignores it and answers with its own.
    const r = await curl(...postArgs(url, SPEC_EXAMPLE_REQUEST));
    expect(r.status).toBe(200);
    const parsed = parseDecideResponse(JSON.parse(r.body), questions);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.value.model).toBe('heuristic');
      for (const d of parsed.value.predicted) expect(d.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    }
    const metrics = await curl(`${url}/metrics`);
    expect(metrics.body).toMatch(/^llamacpp:n_decode_total 1$/m);

    child.kill('SIGTERM');
    const code = await exited;
    // Stopped by SIGTERM: 128 + 15, by the Unix convention (a crash would be 1).
    expect(code).toBe(143);
    expect(stderr).toContain('shutting down');
    await expect(curl(`${url}/health`)).rejects.toThrow();
  });

  it('refuses an unknown model with a usage error (exit 2)', async () => {
    const r = await run(process.execPath, [CLI, 'serve', '--model', 'laya']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((r as { code: number }).code).toBe(2);
    expect((r as { stderr: string }).stderr).toMatch(
      /--model "laya" is not a built-in model \(known: heuristic, prior, uniform, zero, judge\)/,
    );
  });
});
