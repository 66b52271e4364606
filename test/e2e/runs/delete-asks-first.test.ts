/**
 * `runs delete` asks before it deletes: on a terminal it names what goes and deletes only on
 * "y"; without a terminal it deletes only with --yes, and otherwise refuses, naming --yes.
 * Real CLI in process, real store made by `bench`.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type InProcessOptions } from '../../../src/cli/test-support/in-process-cli.js';
import { fakeTerminal } from '../../../src/cli/test-support/fake-terminal.js';
import { uniquePrefix } from '../../../src/cli/test-support/unique-prefix.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-runs-delete-');
const store = join(dir, 'runs.sqlite');
const ids: string[] = [];

const cli = (args: string[], options: InProcessOptions = {}) =>
  runCliInProcess(args, { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data') }, ...options });

async function stillThere(id: string): Promise<boolean> {
  const show = await cli(['runs', 'show', id, '--store', 'runs.sqlite']);
  return show.code === 0;
}

beforeAll(async () => {
  for (let i = 0; i < 4; i++) {
    const r = await cli(['bench', '--limit', '2', '--store', store, '--json']);
    expect(r.code, r.stderr).toBe(0);
    ids.push((JSON.parse(r.stdout) as { id: string }).id);
  }
}, 60_000);

describe('runs delete', () => {
  it('refuses without a terminal and without --yes, naming --yes in a command that works when pasted', async () => {
    const id = ids[0]!;
    const r = await cli(['runs', 'delete', uniquePrefix(id, ids), '--store', 'runs.sqlite']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--yes');
    expect(r.stderr).not.toMatch(/internal error/);
    expect(await stillThere(id)).toBe(true);
    // The command it names deletes.
    const hint = /(decidekit runs delete \S+ --yes --store \S+)/.exec(r.stderr)![1]!;
    const pasted = await cli(hint.split(' ').slice(1));
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toBe(`deleted run ${id}\n`);
    expect(await stillThere(id)).toBe(false);
  });

  it('on a terminal, names the run and keeps it unless the answer is yes', async () => {
    const id = ids[1]!;
    const no = fakeTerminal('n\n');
    const kept = await cli(['runs', 'delete', uniquePrefix(id, ids), '--store', 'runs.sqlite'], { terminal: no.ports });
    expect(kept.code).toBe(1);
    expect(no.shown()).toContain(`Delete run ${id}`);
    expect(no.shown()).toContain('[y/N]');
    expect(kept.stderr).toContain('nothing was deleted');
    expect(await stillThere(id)).toBe(true);

    // No answer at all (the input ends) is no.
    const closed = fakeTerminal('');
    expect((await cli(['runs', 'delete', id, '--store', 'runs.sqlite'], { terminal: closed.ports })).code).toBe(1);
    expect(await stillThere(id)).toBe(true);

    const yes = fakeTerminal('y\n');
    const gone = await cli(['runs', 'delete', id, '--store', 'runs.sqlite'], { terminal: yes.ports });
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toBe(`deleted run ${id}\n`);
    expect(await stillThere(id)).toBe(false);
  });

  it('deletes at once with --yes, terminal or not', async () => {
    const terminal = fakeTerminal('');
    const onTerminal = await cli(['runs', 'delete', ids[2]!, '--yes', '--store', 'runs.sqlite'], {
      terminal: terminal.ports,
    });
    expect(onTerminal.code, onTerminal.stderr).toBe(0);
    expect(terminal.shown()).toBe('');
    const piped = await cli(['runs', 'delete', ids[3]!, '--yes', '--store', 'runs.sqlite']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(await stillThere(ids[2]!)).toBe(false);
    expect(await stillThere(ids[3]!)).toBe(false);
  });

  it('says an unknown id is unknown before asking anything', async () => {
    const terminal = fakeTerminal('y\n');
    const r = await cli(['runs', 'delete', '19990101', '--store', 'runs.sqlite'], { terminal: terminal.ports });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown run/);
    expect(terminal.shown()).toBe('');
  });
});
