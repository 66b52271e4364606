/**
 * Every `--help` (the command list, each command, each subcommand) fits an 80-column
 * terminal, and its usage lines line up: a form that takes more than one line goes on under
 * its first argument, and each further form starts under the first. The real CLI in process.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';

async function everyHelp(): Promise<Array<{ argv: string[]; command: string | null }>> {
  const all: Array<{ argv: string[]; command: string | null }> = [{ argv: ['--help'], command: null }];
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const command = await entry.load();
    all.push({ argv: [name, '--help'], command: name });
    for (const sub of (await command.loadSubcommands?.()) ?? [])
      all.push({ argv: [...sub.name.split(' '), '--help'], command: sub.name });
  }
  return all;
}

/** The lines from `Usage:` to the blank line after it. */
function usageBlock(help: string): string[] {
  const lines = help.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Usage: '));
  const end = lines.indexOf('', start);
  return lines.slice(start, end);
}

describe('--help', () => {
  it('fits 80 columns for every command and subcommand', async () => {
    const helps = await everyHelp();
    expect(helps.length).toBeGreaterThan(20);
    for (const { argv } of helps) {
      const r = await runCliInProcess(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      const long = r.stdout.split('\n').filter((l) => [...l].length > 80);
      expect(long, `${argv.join(' ')} has lines over 80 columns`).toEqual([]);
    }
  });

  it('lines up the usage lines: a form goes on under its first argument, each form under the first', async () => {
    for (const { argv, command } of await everyHelp()) {
      const block = usageBlock((await runCliInProcess(argv)).stdout);
      expect(block[0], argv.join(' ')).toMatch(/^Usage: decidekit /);
      const name = command === null ? '' : `${command} `;
      let column = -1;
      for (const line of block) {
        const form = /^(?:Usage: | {7})decidekit /.exec(line);
        if (form !== null) {
          expect(line.slice(form[0].length).startsWith(name), `${argv.join(' ')}: ${line}`).toBe(true);
          column = form[0].length + name.length;
        } else {
          expect(line.length - line.trimStart().length, `${argv.join(' ')}: ${line}`).toBe(column);
          expect(line.trimStart()).not.toMatch(/^decidekit\b/);
        }
      }
    }
  });

  it('says that report and runs report write HTML', async () => {
    for (const argv of [
      ['report', '--help'],
      ['runs', 'report', '--help'],
    ]) {
      const { stdout } = await runCliInProcess(argv);
      expect(stdout).toMatch(/the HTML page/);
      expect(stdout).toContain('--format terminal|markdown|json|html');
    }
  });
});
