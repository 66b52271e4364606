/**
 * The lint rules that keep capabilities where ARCHITECTURE.md puts them (`capabilityRules`
 * in eslint.config.js, run by `npm test` over the whole tree): each finds a deliberate
 * breach in the code it guards, and lets the same code through where it is allowed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const { capabilityRules } = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as {
  capabilityRules: Linter.Config[];
};
const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: capabilityRules });

/** The rule messages for `code` as if it were the file at `path` (which need not exist). */
async function breaches(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  return result!.messages.filter((m) => m.ruleId !== null).map((m) => m.message);
}

const CLOCKS_AND_CHANCE = [
  'export const a = Date.now();',
  'export const b = new Date();',
  'export const c = Math.random();',
  "export const d = fetch('http://127.0.0.1/');",
  'export const e = performance.now();',
  'export const f = process.pid;',
].join('\n');

const TERMINAL_AND_ENV = [
  "export const home = process.env['HOME'];",
  'export const stop = () => process.exit(1);',
  "export const say = () => process.stdout.write('x');",
  "export const warn = () => process.stderr.write('x');",
  "export const log = () => console.log('x');",
].join('\n');

describe('the capability rules', () => {
  it('find a clock, randomness, fetch and the process in the core', async () => {
    const found = await breaches('src/core/some-metric.ts', CLOCKS_AND_CHANCE);
    expect(found).toHaveLength(6);
    expect(found.filter((m) => m.includes('no clock'))).toHaveLength(2);
    expect(found.some((m) => m.includes('Math.random'))).toBe(true);
    expect(found.filter((m) => m.includes('the core is pure'))).toHaveLength(3);
  });

  it('find environment reads, exits and terminal writes outside the cli, in the core too', async () => {
    for (const path of ['src/app/some-use-case.ts', 'src/reports/some-report.ts', 'src/core/some-metric.ts']) {
      const found = await breaches(path, TERMINAL_AND_ENV);
      // In the core each use of the process is also a use of the process at all.
      expect(found, path).toHaveLength(path.startsWith('src/core/') ? 9 : 5);
      expect(
        found.filter((m) => m.includes('belongs in src/cli')),
        path,
      ).toHaveLength(4);
      expect(
        found.some((m) => m.includes('only src/cli writes to the terminal')),
        path,
      ).toBe(true);
    }
  });

  it('let the cli, the library entry and tests have them, and the layers above the core keep time', async () => {
    for (const path of ['src/cli/some-command.ts', 'src/index.ts', 'src/app/some-use-case.test.ts'])
      expect(await breaches(path, `${CLOCKS_AND_CHANCE}\n${TERMINAL_AND_ENV}`), path).toEqual([]);
    expect(await breaches('src/app/some-use-case.ts', CLOCKS_AND_CHANCE)).toEqual([]);
    expect(await breaches('src/core/some-metric.test.ts', CLOCKS_AND_CHANCE)).toEqual([]);
  });
});
