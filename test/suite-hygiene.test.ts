/**
 * The suite runs test files one after another in shared workers (`isolate: false` in
 * vitest.config.ts): a file that mocked a module, faked timers without restoring them or
 * changed the process's environment, working folder or exit code would leak into the files
 * after it. This keeps such calls out of the test files; a test that needs one runs the CLI
 * through `runCli(argv, io)` with its own `env` and `cwd`, or in a spawned process.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** Test files, and the helpers they share (`test/support/`, any `test-support/` under src). */
function testFiles(dir: string, helpers = false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' ? [] : testFiles(path, helpers || name === 'support' || name === 'test-support');
    return name.endsWith('.test.ts') || (helpers && name.endsWith('.ts')) ? [path] : [];
  });
}

/** Calls that change what later files in the same worker see. */
const LEAKS: readonly [RegExp, string][] = [
  [/\bvi\.(mock|doMock|hoisted|stubGlobal|stubEnv|useFakeTimers)\b/, 'mocks or stubs shared state'],
  [/\bprocess\.env(\.\w+|\[[^\]]+\])\s*=(?!=)/, 'assigns to process.env'],
  [/\bdelete\s+process\.env\b/, 'deletes from process.env'],
  [/\bprocess\.(chdir|exitCode\s*=|umask\()/, 'changes the process'],
  [/\bprocess\.on\(\s*['"](SIG|uncaught|unhandled)/, 'installs a process handler'],
];

/** A temp folder made by hand under the system's temp folder (a subfolder of a helper's folder is fine). */
const BY_HAND_TEMP_FOLDER = /\bmkdtemp(Sync)?\([^)]*\btmpdir\(\)/;

describe('the test suite', () => {
  it('leaves shared process state alone in every test file and test helper', () => {
    const self = relative(ROOT, import.meta.filename);
    const offenders: string[] = [];
    for (const file of [...testFiles(join(ROOT, 'src')), ...testFiles(join(ROOT, 'test'))]) {
      const name = relative(ROOT, file);
      if (name === self) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const [pattern, what] of LEAKS) if (pattern.test(line)) offenders.push(`${name}:${i + 1} ${what}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('makes temp folders only through the temp-folder helper, which removes them', () => {
    const helper = join('src', 'datasets', 'test-support', 'temp-folders.ts');
    const offenders: string[] = [];
    for (const file of [...testFiles(join(ROOT, 'src')), ...testFiles(join(ROOT, 'test'))]) {
      const name = relative(ROOT, file);
      if (name === helper || name === relative(ROOT, import.meta.filename)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (BY_HAND_TEMP_FOLDER.test(line)) offenders.push(`${name}:${i + 1}`);
        });
    }
    expect(offenders).toEqual([]);
    expect(BY_HAND_TEMP_FOLDER.test("const dir = mkdtempSync(join(tmpdir(), 'x-'));")).toBe(true);
    expect(BY_HAND_TEMP_FOLDER.test("await mkdtemp(join(tmpdir(), 'x-'))")).toBe(true);
    expect(BY_HAND_TEMP_FOLDER.test("mkdtempSync(join(tmp, 'sub-'))")).toBe(false);
  });

  it('recognises each kind of leak it looks for', () => {
    const samples = [
      "vi.mock('../x.js')",
      'vi.useFakeTimers()',
      "process.env.HOME = '/tmp'",
      "process.env['X'] = '1'",
      'delete process.env.X',
      "process.chdir('/tmp')",
      'process.exitCode = 1',
      "process.on('SIGINT', f)",
    ];
    expect(samples.filter((line) => !LEAKS.some(([p]) => p.test(line)))).toEqual([]);
    expect(LEAKS.some(([p]) => p.test("if (process.env.X === '1') return"))).toBe(false);
  });
});
