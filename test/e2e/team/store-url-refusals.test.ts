/**
 * End to end: a malformed PostgreSQL store URL (a port that is not a number, a scheme that is
 * not PostgreSQL's, a host that cannot be one) is refused at once with exit 2, naming the bad
 * part and never the password, before any connection is tried.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-store-url-');
const env = { XDG_DATA_HOME: join(tmp, 'xdg') };
const cli = (argv: readonly string[], extraEnv: Record<string, string> = {}) =>
  runCliInProcess(argv, { env: { ...env, ...extraEnv }, cwd: ROOT });

describe('a malformed store URL', () => {
  const cases: [string, RegExp][] = [
    ['postgresql://127.0.0.1:abc/dk', /port "abc"/],
    ['postgresql://u:hidden-pw@127.0.0.1:99999/dk', /port "99999"/],
    ['postgres://127.0.0.1:0/dk', /port "0"/],
    ['postgresql://exa mple.org/dk', /host "exa mple\.org"/],
    ['mysql://127.0.0.1/dk', /scheme "mysql:"/],
  ];
  for (const [url, why] of cases) {
    it(`is refused at once naming the bad part: ${url}`, async () => {
      for (const [argv, extra] of [
        [['runs', 'list', '--store', url], {}],
        [['runs', 'list'], { DECIDEKIT_STORE: url }],
      ] as const) {
        const r = await cli(argv, extra);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(why);
        expect(r.stderr).toMatch(extra.DECIDEKIT_STORE === undefined ? /--store/ : /DECIDEKIT_STORE/);
        expect(r.stderr).not.toContain('hidden-pw');
        expect(r.stderr).not.toContain('internal error');
        expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      }
    });
  }
});
