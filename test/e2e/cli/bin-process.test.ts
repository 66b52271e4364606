/**
 * The installed bin as a process: what only a real process shows (the exit status, the
 * entry's wiring of streams and signals). Everything else runs in process through `runCli`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { openStore } from '../../../src/store/index.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(
  ROOT,
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { decidekit: string } }).bin.decidekit,
);
const DATA = join(ROOT, 'data', 'moderation');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-process-');

function bin(...args: string[]) {
  const r = spawnSync(BIN, args, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, cwd: tmp });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the decidekit bin', () => {
  it('runs by its shebang and lists every command, exit 0', () => {
    const r = bin('--help');
    expect(r.code).toBe(0);
    for (const name of [
      'bench',
      'score',
      'compare',
      'validate',
      'tune',
      'actions',
      'serve',
      'dataset',
      'report',
      'runs',
    ])
      expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('exits 2 on usage errors and 1 on invalid input, without a stack trace', () => {
    expect(bin().code).toBe(2);
    const unknown = bin('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('decidekit: unknown command "frobnicate"');
    const usage = bin('runs', 'list', '--limt', '3');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown option --limt (did you mean --limit?)');
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, '{"case_id": 1}\n');
    const invalid = bin('score', '--dataset', join(DATA, 'dataset.jsonl'), '--results', bad);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/bad\.jsonl:1/);
    expect(invalid.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });

  it('ends a command that does not watch for signals by SIGINT itself, without waiting for its work', async () => {
    // `dataset fetch` from a server that never answers: only the signal ends it.
    const { createServer } = await import('node:http');
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const child = spawn(BIN, ['dataset', 'fetch', 'typed-decisions', '--cache-dir', join(tmp, 'cache')], {
        env: { ...process.env, NO_COLOR: '1', HF_ENDPOINT: `http://127.0.0.1:${port}` },
      });
      const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
        server.once('request', () => child.kill('SIGINT'));
        child.on('exit', (code, signal) => resolve({ code, signal }));
      });
      // The shell shows it as 130 (128 + SIGINT's number), as for an exit with that code; ending
      // by the signal also ends a process whose left-over work another thread waits on.
      expect(ended).toEqual({ code: null, signal: 'SIGINT' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  for (const [signal, expected] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`serve finishes the request in flight on ${signal}, then exits ${expected}`, async () => {
      const child = spawn(BIN, ['serve', '--port', '0', '--latency-ms', '1500'], {
        env: { ...process.env, NO_COLOR: '1' },
        cwd: tmp,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const events: string[] = [];
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => {
          events.push('exit');
          resolve(code);
        }),
      );
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
        });
      });
      const answer = fetch(`${url}/v1/systemone`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state: 'x', questions: { q: { type: 'noul', instructions: 'Is it?' } } }),
      }).then(async (r) => {
        events.push('response');
        return { status: r.status, body: (await r.json()) as { answers?: { q?: { type: string } } } };
      });
      await new Promise((resolve) => setTimeout(resolve, 400)); // the request waits out its 1.5 s latency
      child.kill(signal);
      const [code, response] = await Promise.all([exited, answer]);
      expect(response.status).toBe(200);
      expect(response.body.answers?.q?.type).toBe('noul');
      expect(events).toEqual(['response', 'exit']);
      expect(code).toBe(expected);
      expect(stderr).toContain('finishing the requests in flight');
    });
  }

  it('keeps a bench run (interrupted, resumable) when its standard error is closed', async () => {
    const store = join(tmp, 'epipe.sqlite');
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { latencyMs: 20 } });
    try {
      const child = spawn(BIN, ['bench', '--base-url', server.url, '--store', store], {
        env: { ...process.env, NO_COLOR: '1' },
        cwd: tmp,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      // Read the first line, then hang up: later writes to stderr meet EPIPE.
      child.stderr.once('data', () => child.stderr.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      expect(code).toBe(130);
      const s = openStore(store, { mustExist: true });
      try {
        const [head] = s.runs.list();
        expect(head?.status).toBe('interrupted');
      } finally {
        s.close();
      }
    } finally {
      await server.close();
    }
  });

  it('probe --base-url finds a plain serve in another process conformant every time, the oversized body included', async () => {
    // The trial's setup: the server in its own process, where closing under a body still
    // being sent races with the client reading the 413 (5 of 8 probes failed before).
    const child = spawn(BIN, ['serve', '--port', '0'], {
      env: { ...process.env, NO_COLOR: '1' },
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
        });
      });
      for (let i = 0; i < 10; i++) {
        const r = await runCliInProcess(
          ['probe', '--base-url', url, '--only', 'conformance', '--cases', '1', '--no-store'],
          { cwd: ROOT },
        );
        expect(r.stdout).toMatch(/✓ +rejects-oversized-body +1\/1 ok/);
        expect(r.stdout).toContain('Verdict: conformant (20/20 checks pass)');
        expect(r.code).toBe(0);
      }
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
