import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands/index.js';
import { commandPrefixOf, withCommandPrefix } from './invocation.js';
import type { CliIo } from './io.js';
import { runCliInProcess } from './test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../datasets/test-support/temp-folders.js';

/** What npm puts in the environment of `npx decidekit …` (and of `npm exec decidekit …`). */
const NPX = { npm_lifecycle_event: 'npx', npm_lifecycle_script: "'decidekit'" };

function rewritten(text: string): string {
  let out = '';
  const io = {
    stdout: { write: (t: string) => void (out += t), isTTY: false },
    stderr: { write: () => undefined, isTTY: false },
  } as unknown as CliIo;
  withCommandPrefix(io, 'npx decidekit', Object.keys(COMMANDS)).stdout.write(text);
  return out;
}

describe('the command prefix of printed hints', () => {
  it('is npx decidekit only when npm started this process for decidekit', () => {
    expect(commandPrefixOf(NPX)).toBe('npx decidekit');
    expect(commandPrefixOf({ ...NPX, npm_lifecycle_script: 'decidekit' })).toBe('npx decidekit');
    expect(commandPrefixOf({ npm_lifecycle_event: 'npx', npm_lifecycle_script: "'vitest'" })).toBe('decidekit');
    expect(commandPrefixOf({ npm_lifecycle_event: 'test', npm_lifecycle_script: 'decidekit' })).toBe('decidekit');
    expect(commandPrefixOf({})).toBe('decidekit');
  });

  it('rewrites commands to run, not message prefixes, names or hints already prefixed', () => {
    expect(rewritten("see it with: decidekit runs show 2026 --store s.sqlite (or 'decidekit runs list')")).toBe(
      "see it with: npx decidekit runs show 2026 --store s.sqlite (or 'npx decidekit runs list')",
    );
    expect(rewritten('Usage: decidekit <command> [options]')).toBe('Usage: npx decidekit <command> [options]');
    for (const kept of [
      'decidekit bench: note: a price was kept',
      'decidekit runs show: unknown run',
      'decidekit runs: unknown run',
      'decidekit: unknown command',
      'decidekit/typed-decisions-synthetic-sample',
      'decidekit 0.1.0',
      'npx decidekit runs list',
      'my-decidekit bench',
      'decidekit benchmarks are',
    ])
      expect(rewritten(kept)).toBe(kept);
  });
});

describe('hints under npx, in process', () => {
  const dir = tempFolderRemovedAfterAll('decidekit-npx-hint-');

  it('tells how to see a stored run with npx, and the rest of that hint runs', async () => {
    const bench = await runCliInProcess(['bench', '--limit', '3', '--store', 'runs.sqlite'], { env: NPX, cwd: dir });
    expect(bench.code).toBe(0);
    const hint = /see it with: (npx decidekit runs show \S+ --store runs\.sqlite)/.exec(bench.stderr + bench.stdout);
    expect(hint).not.toBeNull();
    const args = hint![1]!.split(' ').slice(2);
    const shown = await runCliInProcess(args, { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(args[2]!);
  });

  it('says npx decidekit in usage errors, and plain decidekit without npx', async () => {
    const npx = await runCliInProcess(['bench', '--bogus'], { env: NPX, cwd: dir });
    expect(npx.code).toBe(2);
    expect(npx.stderr).toContain("Run 'npx decidekit bench --help' for usage.");
    expect(npx.stderr).toMatch(/^decidekit bench: unknown option --bogus/);
    const plain = await runCliInProcess(['bench', '--bogus'], { cwd: dir });
    expect(plain.stderr).toContain("Run 'decidekit bench --help' for usage.");
  });
});
