/**
 * What the command line says back to a mistyped command: a near-miss command gets "did you
 * mean", options declared as conflicting are a usage error, and typed input is echoed cut
 * short and once. The real CLI in process.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-command-line-');
const env = { XDG_DATA_HOME: tmp };

describe('command-line mistakes', () => {
  it("suggests the command nearest to a misspelled one ('bnech' → 'bench')", async () => {
    const r = await runCliInProcess(['bnech'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `decidekit: unknown command "bnech"; did you mean 'bench'?\nRun 'decidekit --help' for the list of commands.\n`,
    );
    expect(r.stdout).toBe('');
  });

  it('answers a command that is nowhere near any in two lines, the second how to list them', async () => {
    const r = await runCliInProcess(['frobnicate'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `decidekit: unknown command "frobnicate"\nRun 'decidekit --help' for the list of commands.\n`,
    );
    const listed = await runCliInProcess(['--help'], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ {2}bench /m);
  });

  it('refuses --store with --no-store as a usage error, before any work', async () => {
    for (const command of ['bench', 'audit', 'probe']) {
      const r = await runCliInProcess([command, '--store', `${tmp}/s.sqlite`, '--no-store'], { env, cwd: tmp });
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`decidekit ${command}: --store and --no-store cannot be given together; give one`);
      expect(r.stdout).toBe('');
    }
  });

  it('echoes a very long unknown option cut short, once, with its length', async () => {
    const name = `--${'x'.repeat(3_000_000)}`;
    const r = await runCliInProcess(['bench', name], { env });
    expect(r.code).toBe(2);
    expect(r.stderr.length).toBeLessThan(300);
    expect(r.stderr).toContain('(3,000,002 characters)');
    expect(r.stderr.match(/x{20,}/g)?.length).toBe(1);
    const command = await runCliInProcess(['y'.repeat(100_000)], { env });
    expect(command.code).toBe(2);
    expect(command.stderr.split('\n')[0]!.length).toBeLessThan(120);
  });
});
