/**
 * `decidekit live` drawing through the terminal capability, in process: a fake terminal
 * (a stream pair that records raw mode) stands in for the TTY, the server is the real
 * reference server. The same paths run in a real terminal in test/e2e/live/tmux-terminal.test.ts;
 * here a terminal that fails mid-session can be simulated.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../protocol/server/server.js';
import type { CliIo } from '../io.js';
import { runCli } from '../run-cli.js';

const LEAVE = '\x1b[?1049l';
const ENTER = '\x1b[?1049h';

function fakeTerminal(options: { failOnWrite?: number } = {}) {
  const rawModes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(mode: boolean) {
      rawModes.push(mode);
      return input;
    },
  });
  let written = '';
  let writes = 0;
  const output = Object.assign(new PassThrough(), {
    isTTY: true,
    columns: 100,
    rows: 30,
    write(chunk: string) {
      writes++;
      if (writes === options.failOnWrite) throw Object.assign(new Error('write EIO'), { code: 'EIO' });
      written += chunk;
      return true;
    },
  });
  return {
    ports: { input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream },
    rawModes,
    written: () => written,
    press: (keys: string) => input.emit('data', Buffer.from(keys)),
  };
}

async function runLive(
  terminal: ReturnType<typeof fakeTerminal>,
  args: string[],
  keys: (t: typeof terminal) => void,
  env: Record<string, string> = { NO_COLOR: '1' },
) {
  const server = await startReferenceServer({ host: '127.0.0.1', port: 0, metrics: true });
  let stderr = '';
  const io: CliIo = {
    stdout: { write: () => undefined, isTTY: true, columns: 100 },
    stderr: { write: (t) => void (stderr += t), isTTY: true },
    env,
    cwd: process.cwd(),
    signal: new AbortController().signal,
    terminal: terminal.ports,
  };
  const timer = setInterval(() => keys(terminal), 50);
  try {
    const code = await runCli(['live', '--base-url', server.url, '--interval', '0.05', ...args], io);
    return { code, stderr };
  } finally {
    clearInterval(timer);
    await server.close();
  }
}

describe('decidekit live on a terminal', () => {
  it('draws the panels in the alternate screen and restores the terminal on q (exit 0)', async () => {
    const t = fakeTerminal();
    const r = await runLive(t, [], (x) => {
      if (x.written().includes('── server')) x.press('q');
    });
    expect(r.code).toBe(0);
    const out = t.written();
    expect(out.startsWith(ENTER)).toBe(true);
    expect(out).toContain('── quality');
    expect(out.endsWith(`\x1b[?25h${LEAVE}`)).toBe(true);
    expect(t.rawModes).toEqual([true, false]);
    // NO_COLOR: no colour or weight codes, only cursor and screen control.
    expect(out).not.toMatch(/\x1b\[(1|2|3[1-6])m/);
  });

  it('draws in colour when NO_COLOR is not set', async () => {
    const t = fakeTerminal();
    const r = await runLive(
      t,
      [],
      (x) => {
        if (x.written().includes('── server')) x.press('q');
      },
      {},
    );
    expect(r.code).toBe(0);
    expect(t.written()).toMatch(/\x1b\[1mdecidekit live\x1b\[22m/);
  });

  it('exits 130 on the Ctrl+C byte, restored', async () => {
    const t = fakeTerminal();
    const r = await runLive(t, [], (x) => {
      if (x.written().includes('── now ·')) x.press('\x03');
    });
    expect(r.code).toBe(130);
    expect(t.written().endsWith(LEAVE)).toBe(true);
    expect(t.rawModes).toEqual([true, false]);
  });

  it('restores the terminal, then reports the error, when the screen fails mid-session', async () => {
    const t = fakeTerminal({ failOnWrite: 3 });
    const r = await runLive(t, [], () => undefined);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('decidekit live: the screen failed: write EIO\n');
    expect(t.written().endsWith(LEAVE)).toBe(true);
    expect(t.rawModes).toEqual([true, false]);
  });

  it('draws nothing under --json: one JSON object per probe instead', async () => {
    const t = fakeTerminal();
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0 });
    const controller = new AbortController();
    let stdout = '';
    const io: CliIo = {
      stdout: {
        write: (s) => {
          stdout += s;
          if (stdout.split('\n').length > 2) controller.abort();
        },
        isTTY: true,
      },
      stderr: { write: () => undefined, isTTY: true },
      env: {},
      cwd: process.cwd(),
      signal: controller.signal,
      terminal: t.ports,
    };
    try {
      expect(await runCli(['live', '--base-url', server.url, '--interval', '0', '--json'], io)).toBe(130);
    } finally {
      await server.close();
    }
    expect(t.written()).toBe('');
    expect(t.rawModes).toEqual([]);
    expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ probe: 1 });
  });
});
