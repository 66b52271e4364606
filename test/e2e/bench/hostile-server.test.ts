/**
 * End to end against a hostile server: a real `bench` (the CLI in process, the SQLite store,
 * the reports written by --out) for every attack mode, then the key and any terminal escape
 * are looked for in stdout, stderr, the store file (and its WAL) and every report.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { HOSTILE_MODES, startHostileServer } from '../../../src/protocol/client/test-support/hostile-server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const KEY = 'sk-live/9fQ2&Zr7Lm3Xw8Tb5Kc1Vd6Hy4Np0Ja';
const PIECES = Array.from({ length: KEY.length - 11 }, (_, i) => KEY.slice(i, i + 12));
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-hostile-');

/** The text with JSON \u escapes decoded (the key must not hide behind them either). */
function unescaped(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

describe('bench against a hostile server', () => {
  it.each(HOSTILE_MODES)('mode %s: the key and terminal escapes reach no output, store or report', async (mode) => {
    const server = await startHostileServer(mode, KEY);
    const dir = join(tmp, mode);
    const store = join(dir, 'runs.sqlite');
    let out = '';
    let err = '';
    try {
      const { code, stdout, stderr } = await runCliInProcess(
        ['bench', '--base-url', server.url, '--api-key', KEY, '--limit', '3', '--retries', '0'].concat([
          '--store',
          store,
          '--out',
          join(dir, 'reports'),
        ]),
        { cwd: tmp, env: { XDG_DATA_HOME: join(tmp, 'xdg') } },
      );
      out = stdout;
      err = stderr;
      expect(server.requests()).toBeGreaterThan(0);
      expect(code).not.toBe(0);
    } finally {
      await server.close();
    }
    const files = [store, `${store}-wal`].filter((f) => existsSync(f));
    const reports = existsSync(join(dir, 'reports')) ? readdirSync(join(dir, 'reports')) : [];
    const texts: Array<[string, string]> = [
      ['stdout', out],
      ['stderr', err],
      ...files.map((f): [string, string] => [f, readFileSync(f).toString('latin1')]),
      ...reports.map((f): [string, string] => [f, readFileSync(join(dir, 'reports', f), 'utf8')]),
    ];
    for (const [where, text] of texts) {
      const plain = unescaped(text);
      for (const piece of PIECES) expect(plain.includes(piece), `${where} holds ${piece}`).toBe(false);
      if (!where.includes('sqlite'))
        expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(plain), `${where} holds a control character`).toBe(
          false,
        );
    }
    expect(err).not.toMatch(/internal error|^\s+at /m);
    // A run that got answers (even bad ones) is stored and reported; a 404 or a redirect stops it first.
    if (mode !== 'esc404' && mode !== 'redirect') expect(reports.length).toBeGreaterThan(0);
    if (mode === 'deep') expect(texts.map(([, t]) => t).join('\n')).toMatch(/malformed[^\n]*too deeply nested/);
  });
});
