/**
 * End to end in a real terminal: `node dist/cli/main.js live` runs in a tmux pane (its own
 * socket, killed afterwards) against the reference server started here with /metrics and a
 * seeded fail rate. The screen is read with `capture-pane`; keys go in with `send-keys`.
 * tmux is a Debian package (`.ci/run` installs it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../src/protocol/server/server.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const SOCKET = `decidekit-live-${process.pid}-${randomBytes(4).toString('hex')}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

function screen(target: string): string {
  return tmux('capture-pane', '-p', '-t', target);
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let window = 0;
/** A new window (its own pane) running a bare shell with a known prompt, sized columns x rows. */
function openPane(columns: number, rows: number): string {
  const name = `w${window++}`;
  const shell = `env -i PATH=${process.env['PATH']} HOME=${process.env['HOME'] ?? '/tmp'} TERM=xterm-256color PS1='READY$ ' bash --norc --noprofile`;
  if (window === 1)
    tmux('new-session', '-d', '-s', 'live', '-n', name, '-x', String(columns), '-y', String(rows), shell);
  else tmux('new-window', '-t', 'live', '-n', name, shell);
  tmux('resize-window', '-t', `live:${name}`, '-x', String(columns), '-y', String(rows));
  return `live:${name}`;
}

function run(target: string, command: string): void {
  tmux('send-keys', '-t', target, '-l', `${command}; echo EXIT=$?`);
  tmux('send-keys', '-t', target, 'Enter');
}

const sessionOf = (text: string) => {
  const m = /session\s+\S+\s+(\d[\d,]*)\/(\d[\d,]*)/.exec(text);
  return m ? Number(m[2]!.replace(/,/g, '')) : null;
};
const paneFlag = (target: string, flag: string) => tmux('display-message', '-p', '-t', target, `#{${flag}}`).trim();

let server: ReferenceServer;
let refusing: ReferenceServer;

let socketPath: string | null = null;

beforeAll(async () => {
  if (spawnSync('tmux', ['-V']).status !== 0)
    throw new Error('tmux is not installed: apt-get install -y tmux (.ci/run installs it)');
  server = await startReferenceServer({
    host: '127.0.0.1',
    port: 0,
    metrics: true,
    faults: { seed: 5, failRate: 0.1 },
  });
  refusing = await startReferenceServer({ host: '127.0.0.1', port: 0, faults: { forceStatus: 404 } });
});

afterAll(async () => {
  try {
    socketPath = tmux('display-message', '-p', '#{socket_path}').trim();
    tmux('kill-server');
  } catch {
    // the server was never started
  }
  if (socketPath) rmSync(socketPath, { force: true });
  await server?.close();
  await refusing?.close();
});

describe('decidekit live in a real terminal (tmux)', () => {
  it('fills every panel, resets on Ctrl+R, redraws on resize and gives the prompt back on q', async () => {
    const pane = openPane(100, 30);
    await waitFor('the shell prompt', () => screen(pane).includes('READY$'));
    run(pane, `node ${CLI} live --base-url ${server.url} --interval 0.1`);
    // The server fails one request in ten on purpose, so the 'now' panel may be showing a
    // failed probe at any moment: wait for a screen whose current probe was answered.
    let full = '';
    await waitFor('every panel with /metrics rates and an answered probe', () => {
      const s = (full = screen(pane));
      return (
        /server-wide \d+\.\d req\/s/.test(s) &&
        (sessionOf(s) ?? 0) >= 40 &&
        /\d\/\d match gold · [\d.]+ ms · [\d,]+ input tokens/.test(s)
      );
    });
    for (const panel of [
      'decidekit live',
      '── now · ',
      '── quality · last',
      '── by question type',
      '── confidence',
      '── server',
    ])
      expect(full).toContain(panel);
    expect(full).toMatch(/\d\/\d match gold · [\d.]+ ms · [\d,]+ input tokens/);
    expect(full).toMatch(/latency p50 [\d.]+ ms · p95 [\d.]+ ms/);
    expect(full).toContain('data: synthetic sample');
    expect(paneFlag(pane, 'alternate_on')).toBe('1');
    expect(paneFlag(pane, 'cursor_flag')).toBe('0');
    const before = sessionOf(full)!;

    tmux('send-keys', '-t', pane, 'C-r');
    await waitFor('the session counts reset', () => {
      // Without a reset the session count only grows.
      const n = sessionOf(screen(pane));
      return n !== null && n < before;
    });

    tmux('resize-window', '-t', pane, '-x', '80', '-y', '24');
    // Redrawn at the new size: the header's key hint ends at column 80, the footer on row 24.
    await waitFor('a redraw at 80x24', () => {
      const lines = screen(pane).split('\n');
      return lines[0]!.trimEnd().length === 80 && lines[0]!.trimEnd().endsWith('q quit · ^R reset');
    });
    const small = screen(pane).split('\n');
    expect(small[23]).toMatch(/^data: synthetic/);
    expect(small.some((l) => l.startsWith('── quality'))).toBe(true);

    tmux('send-keys', '-t', pane, 'q');
    await waitFor('the prompt after q', () => /EXIT=0\s*\n\s*READY\$/.test(screen(pane)));
    expect(paneFlag(pane, 'alternate_on')).toBe('0');
    expect(paneFlag(pane, 'cursor_flag')).toBe('1');
    expect(screen(pane)).not.toContain('── quality');
  });

  it('exits 130 on Ctrl+C with the terminal restored', async () => {
    const pane = openPane(100, 30);
    await waitFor('the shell prompt', () => screen(pane).includes('READY$'));
    run(pane, `node ${CLI} live --base-url ${server.url} --interval 0.1`);
    await waitFor('the screen', () => screen(pane).includes('── server'));
    tmux('send-keys', '-t', pane, 'C-c');
    await waitFor('exit 130', () => /EXIT=130\s*\n\s*READY\$/.test(screen(pane)));
    expect(paneFlag(pane, 'alternate_on')).toBe('0');
    expect(paneFlag(pane, 'cursor_flag')).toBe('1');
    // Raw mode is off again: the shell echoes what is typed.
    tmux('send-keys', '-t', pane, '-l', 'echo typed-$((40+2))');
    tmux('send-keys', '-t', pane, 'Enter');
    await waitFor('the shell echoing input', () => screen(pane).includes('typed-42'));
  });

  it('exits 1 before drawing anything against a server answering 404', async () => {
    const pane = openPane(100, 30);
    await waitFor('the shell prompt', () => screen(pane).includes('READY$'));
    run(pane, `node ${CLI} live --base-url ${refusing.url}`);
    await waitFor('exit 1', () => screen(pane).includes('EXIT=1'));
    const text = screen(pane);
    expect(text).toContain('decidekit live: stopped before the screen opened: server does not serve decision models');
    expect(text).not.toContain('── now');
    expect(paneFlag(pane, 'alternate_on')).toBe('0');
  });
});
