/**
 * End to end: every command that talks to a server checks its `--base-url` before any work,
 * with one answer: a query or a fragment is refused (naming the query's parameters, never
 * their values), and so is a host no resolver would take (over 253 characters, or a part
 * over 63), with the URL cut in the message rather than echoed whole.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-base-url-');
const env = { XDG_DATA_HOME: join(tmp, 'xdg'), XDG_CACHE_HOME: join(tmp, 'cache') };

// A server that counts what reaches it: nothing should.
const requests: string[] = [];
const server = http.createServer((req, res) => {
  requests.push(`${req.method} ${req.url}`);
  res.writeHead(500);
  res.end();
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const COMMANDS: readonly (readonly string[])[] = [
  ['bench', '--no-store'],
  ['probe', '--no-store'],
  ['live', '--json'],
  ['audit', '--no-store'],
];

describe('a base URL checked before any work', () => {
  it('is refused with a query, by every command, naming its parameters but not their values', async () => {
    for (const [command, ...rest] of COMMANDS) {
      const r = await runCliInProcess(
        [command!, ...rest, '--base-url', `http://127.0.0.1:${port}/?x=1&token=hunter2q`],
        {
          env,
          cwd: ROOT,
        },
      );
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(
        `--base-url: invalid base URL: http://127.0.0.1:${port}/ carries a query (?x=…&token=…): a base URL has none`,
      );
      expect(r.stderr).not.toContain('hunter2q');
      expect(r.stderr.match(/carries a query/g)).toHaveLength(1);
    }
    const fragment = await runCliInProcess(['bench', '--no-store', '--base-url', `http://127.0.0.1:${port}/#part`], {
      env,
      cwd: ROOT,
    });
    expect(fragment.code).toBe(2);
    expect(fragment.stderr).toContain('carries a fragment (#…): a base URL has none');
    expect(requests).toEqual([]);
  });

  it('names only the query keys given with a value, each cut short', async () => {
    const bare = await runCliInProcess(
      ['bench', '--no-store', '--base-url', `http://127.0.0.1:${port}/?QSECRETTOKENVALUE`],
      {
        env,
        cwd: ROOT,
      },
    );
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`http://127.0.0.1:${port}/ carries a query: a base URL has none`);
    expect(bare.stderr).not.toContain('SECRET');
    const mixed = await runCliInProcess(
      ['probe', '--no-store', '--base-url', `http://127.0.0.1:${port}/?a=1&QSECRETTOKENVALUE`],
      {
        env,
        cwd: ROOT,
      },
    );
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('carries a query (?a=…): a base URL has none');
    expect(mixed.stderr).not.toContain('SECRET');
    const longKey = await runCliInProcess(
      ['bench', '--no-store', '--base-url', `http://127.0.0.1:${port}/?${'k'.repeat(100_000)}=1`],
      {
        env,
        cwd: ROOT,
      },
    );
    expect(longKey.code).toBe(2);
    expect(longKey.stderr).toContain('… (100,000 characters)=…)');
    expect(longKey.stderr.length).toBeLessThan(600);
    expect(requests).toEqual([]);
  });

  it('cuts a long path in the line bench, probe and audit start with', async () => {
    const url = `http://127.0.0.1:1/${'p'.repeat(120_000)}`;
    const cut = /http:\/\/127\.0\.0\.1:1\/p+… \(120,\d{3} characters\)/;
    const bench = await runCliInProcess(['bench', '--no-store', '--limit', '1', '--base-url', url], { env, cwd: ROOT });
    expect(bench.stderr).toMatch(/^decidekit bench: 1 of 1 cases .* against http:/);
    const probe = await runCliInProcess(['probe', '--no-store', '--cases', '1', '--base-url', url], { env, cwd: ROOT });
    const audit = await runCliInProcess(['audit', '--no-store', '--base-url', url], { env, cwd: ROOT });
    for (const [name, r] of [
      ['bench', bench],
      ['probe', probe],
      ['audit', audit],
    ] as const) {
      expect(r.stdout + r.stderr, name).toMatch(cut);
      expect((r.stdout + r.stderr).length, name).toBeLessThan(2000);
    }
  });

  it('is refused with a host no resolver takes, its echo cut', async () => {
    const long = await runCliInProcess(['bench', '--no-store', '--base-url', `http://${'h'.repeat(120_000)}`], {
      env,
      cwd: ROOT,
    });
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('its host has 120,000 characters (a host name has at most 253)');
    expect(long.stderr).toContain('… (120,008 characters)');
    expect(long.stderr.length).toBeLessThan(600);
    expect(long.stdout).toBe('');
    const label = await runCliInProcess(
      ['probe', '--no-store', '--base-url', `http://${'a'.repeat(64)}.example:${port}`],
      { env, cwd: ROOT },
    );
    expect(label.code).toBe(2);
    expect(label.stderr).toContain(
      'a part of its host has 64 characters (each dot-separated part of a host name has at most 63)',
    );
    expect(requests).toEqual([]);
  });
});
