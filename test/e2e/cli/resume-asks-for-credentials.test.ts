/**
 * End to end: a run or an audit that sent a key, or a base URL's user and password, is
 * resumed only with them given again. The store records that credentials were sent (never
 * what they were), and a resume without them is a usage error naming what to give, instead
 * of a resume that asks the server without credentials. The server is a real loopback gate
 * that refuses any request without the right `Authorization` and passes the rest to the
 * real reference server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { startLoopbackGate } from '../../support/loopback-gate.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-resume-credentials-');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

const PASSWORD = 'SECRET-pw-7Hq2';
const KEY = 'sk-resume-Zt5Lp9';
const BASIC = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const env = { XDG_DATA_HOME: join(tmp, 'xdg'), XDG_CACHE_HOME: join(tmp, 'cache') };

/** A loopback gate that answers 401 without the Basic credential or the key, and passes the rest on. */
async function gatedServer(model: string): Promise<{ url: string; refused: string[] }> {
  const upstream = await startReferenceServer({ host: '127.0.0.1', port: 0, model });
  closers.push(() => upstream.close());
  const refused: string[] = [];
  const url = await startLoopbackGate(
    upstream.url,
    (req) => {
      if (req.headers.authorization === BASIC || req.headers.authorization === `Bearer ${KEY}`) return null;
      refused.push(req.url ?? '');
      return { status: 401, message: 'unauthorized' };
    },
    closers,
  );
  return { url, refused };
}

const withPassword = (url: string) => url.replace('http://', `http://admin:${PASSWORD}@`);

/** Runs the CLI, aborting (as Ctrl+C) once stderr shows `abortOn`. */
async function cli(argv: string[], abortOn?: string, extraEnv: Record<string, string> = {}) {
  const controller = new AbortController();
  return runCliInProcess(argv, {
    env: { ...env, ...extraEnv },
    cwd: ROOT,
    signal: controller.signal,
    onStderr: (text) => {
      if (abortOn !== undefined && text.includes(abortOn)) controller.abort();
    },
  });
}

/** The resume command a message printed, as argv (the words after `decidekit`). */
function pastedCommand(text: string, command: 'bench' | 'audit'): string[] {
  const m = new RegExp(`decidekit (${command} --resume \\S+(?: --retry-failed)? --store \\S+)`).exec(text);
  expect(m, text).not.toBeNull();
  return m![1]!.split(' ');
}

function expectClean(text: string): void {
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(KEY);
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(text).not.toContain('internal error');
}

describe('resuming without the credentials the run sent', () => {
  it('bench: a run that sent --api-key asks for it again, and resumes with it', async () => {
    const gate = await gatedServer('heuristic');
    const store = join(tmp, 'bench-key.sqlite');
    const first = await cli(
      ['bench', '--base-url', gate.url, '--api-key', KEY, '--limit', '40', '--store', store],
      'progress:',
    );
    expect(first.code, first.stderr).toBe(130);
    const pasted = pastedCommand(first.stderr, 'bench');
    expect(first.stderr).toContain(
      `${pasted.join(' ')} (with --api-key or DECIDEKIT_API_KEY again: keys are never stored)`,
    );
    const keyless = await cli(pasted);
    expect(keyless.code, keyless.stderr).toBe(2);
    expect(keyless.stderr).toContain('it sent a key (--api-key), and keys are never stored: give it again:');
    expect(keyless.stderr).toContain(`decidekit ${pasted.join(' ')} --api-key KEY`);
    expectClean(keyless.stderr);
    expect(gate.refused).toEqual([]);
    const resumed = await cli([...pasted, '--api-key', KEY]);
    expect(resumed.code, resumed.stderr).toBe(0);
    // The key from the environment is as good as the option.
    const fromEnv = await cli(pasted, undefined, { DECIDEKIT_API_KEY: KEY });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expectClean(`${first.stderr}${first.stdout}${resumed.stderr}${resumed.stdout}`);
  });

  it("bench: a run that sent a base URL's user and password asks for them again", async () => {
    const gate = await gatedServer('heuristic');
    const store = join(tmp, 'bench-basic.sqlite');
    const first = await cli(
      ['bench', '--base-url', withPassword(gate.url), '--limit', '40', '--store', store],
      'progress:',
    );
    expect(first.code, first.stderr).toBe(130);
    const pasted = pastedCommand(first.stderr, 'bench');
    expect(first.stderr).toContain(
      `${pasted.join(' ')} (with the user and password in --base-url again: they are never stored)`,
    );
    const bare = await cli(pasted);
    expect(bare.code, bare.stderr).toBe(2);
    expect(bare.stderr).toContain(
      'it sent the user and password of its base URL, and they are never stored: give them again:',
    );
    expect(bare.stderr).toContain(
      `decidekit ${pasted.join(' ')} --base-url http://USER:PASSWORD@${new URL(gate.url).host}`,
    );
    expectClean(bare.stderr);
    expect(gate.refused).toEqual([]);
    const resumed = await cli([...pasted, '--base-url', withPassword(gate.url)]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expectClean(`${first.stderr}${first.stdout}${resumed.stderr}${resumed.stdout}`);
    expect(readFileSync(store).includes(PASSWORD)).toBe(false);
  });

  it('audit: an audit whose judge URL carried a user and password asks for them again', async () => {
    const gate = await gatedServer('judge');
    const store = join(tmp, 'audit-basic.sqlite');
    const first = await cli(['audit', '--base-url', withPassword(gate.url), '--store', store], 'agrees with the check');
    expect(first.code, first.stderr).toBe(130);
    const pasted = pastedCommand(first.stderr, 'audit');
    const bare = await cli(pasted);
    expect(bare.code, bare.stderr).toBe(2);
    expect(bare.stderr).toContain(
      'its judge was sent the user and password of its base URL, and they are never stored: give them again:',
    );
    expect(bare.stderr).toContain(
      `decidekit ${pasted.join(' ')} --base-url http://USER:PASSWORD@${new URL(gate.url).host}`,
    );
    expectClean(bare.stderr);
    expect(gate.refused).toEqual([]);
    const resumed = await cli([...pasted, '--base-url', withPassword(gate.url)]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expectClean(`${first.stderr}${first.stdout}${resumed.stderr}${resumed.stdout}`);
  });
});
