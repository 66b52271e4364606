import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecidekitError } from '../core/errors.js';
import { claimRun, runClaimPath, type RunClaimOwner } from './run-claim.js';
import { tempFolderRemovedAfterAll } from '../datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-run-claim-unit-');

const owner = (pid: number, alive: readonly number[], host = 'here'): RunClaimOwner => ({
  pid,
  host,
  isAlive: (p) => alive.includes(p),
});

function refusal(fn: () => unknown): DecidekitError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DecidekitError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('claimRun', () => {
  it('writes a claim naming its process and removes it on release, once', () => {
    const store = join(dir, 'a.sqlite');
    const claim = claimRun(store, 'r1', owner(10, [10]), '2026-12-01T00:00:00.000Z');
    expect(claim.path).toBe(runClaimPath(store, 'r1'));
    expect(JSON.parse(readFileSync(claim.path, 'utf8'))).toEqual({
      pid: 10,
      host: 'here',
      since: '2026-12-01T00:00:00.000Z',
    });
    claim.release();
    expect(existsSync(claim.path)).toBe(false);
    // A later claim of the same run is someone else's: a second release leaves it.
    const next = claimRun(store, 'r1', owner(11, [11]), 't');
    claim.release();
    expect(existsSync(next.path)).toBe(true);
    next.release();
  });

  it('refuses a run held by a live process, naming it, and keeps its claim', () => {
    const store = join(dir, 'b.sqlite');
    const held = claimRun(store, 'r1', owner(10, [10, 20]), 'then');
    const e = refusal(() => claimRun(store, 'r1', owner(20, [10, 20]), 'now', 'do this; nothing was done'));
    expect(e.code).toBe('run_busy');
    expect(e.message).toBe(
      `run r1 is being run by another decidekit process (pid 10 on here, since then): do this; nothing was done (if that process is gone, delete ${held.path})`,
    );
    expect(JSON.parse(readFileSync(held.path, 'utf8')).pid).toBe(10);
    // Another run of the same store is free.
    claimRun(store, 'r2', owner(20, [10, 20]), 'now').release();
    held.release();
  });

  it("takes over the claim of a process that is gone, and refuses another host's, which it cannot check", () => {
    const store = join(dir, 'c.sqlite');
    claimRun(store, 'r1', owner(10, []), 'then');
    const taken = claimRun(store, 'r1', owner(20, [20]), 'now');
    expect(JSON.parse(readFileSync(taken.path, 'utf8')).pid).toBe(20);
    taken.release();
    claimRun(store, 'r1', owner(10, [], 'elsewhere'), 'then');
    expect(refusal(() => claimRun(store, 'r1', owner(20, [20]), 'now')).message).toContain('(pid 10 on elsewhere,');
  });

  it('lets only one of two processes take over the same stale claim', () => {
    const store = join(dir, 'race.sqlite');
    claimRun(store, 'r1', owner(10, []), 'then');
    let second: ReturnType<typeof claimRun> | null = null;
    // The first taker finds the holder gone; while it decides, a second one takes over.
    const first: RunClaimOwner = {
      pid: 20,
      host: 'here',
      isAlive: (p) => {
        if (p === 10 && second === null) second = claimRun(store, 'r1', owner(30, [30]), 'meanwhile');
        return p === 20 || p === 30;
      },
    };
    const e = refusal(() => claimRun(store, 'r1', first, 'now'));
    expect(e.code).toBe('run_busy');
    expect(e.message).toContain('(pid 30 on here, since meanwhile)');
    expect(JSON.parse(readFileSync(runClaimPath(store, 'r1'), 'utf8')).pid).toBe(30);
    expect(readdirSync(dir).filter((f) => f.startsWith('race.sqlite.'))).toEqual(['race.sqlite.r1.lock']);
    second!.release();
    expect(existsSync(runClaimPath(store, 'r1'))).toBe(false);
  });

  it('names one claim for two paths to one store (a symbolic link to it)', () => {
    const store = join(dir, 'real.sqlite');
    writeFileSync(store, '');
    const link = join(dir, 'link.sqlite');
    symlinkSync(store, link);
    const held = claimRun(store, 'r1', owner(10, [10, 20]), 'then');
    expect(refusal(() => claimRun(link, 'r1', owner(20, [10, 20]), 'now')).code).toBe('run_busy');
    expect(runClaimPath(link, 'r1')).toBe(held.path);
    held.release();
  });

  it('counts a claim it cannot read (being written this instant) as held', () => {
    const store = join(dir, 'd.sqlite');
    writeFileSync(runClaimPath(store, 'r1'), '');
    const e = refusal(() => claimRun(store, 'r1', owner(20, [20]), 'now'));
    expect(e.code).toBe('run_busy');
    expect(e.message).toMatch(/^run r1 is being run by another decidekit process: /);
  });

  it('names the folder when the claim cannot be written', () => {
    const e = refusal(() => claimRun(join(dir, 'no-such-folder', 'e.sqlite'), 'r1', owner(20, [20]), 'now'));
    expect(e.code).toBe('store_write_failed');
    expect(e.message).toContain('(no such file or folder); the folder of the run store must be writable');
  });
});
