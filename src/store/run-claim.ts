/**
 * One process at a time sends a stored run's cases. Without this, `bench --resume RUN` while
 * another process is still running RUN sends the same cases twice (paid twice on a paid
 * server), and the two processes overwrite each other's case rows, leaving a summary that
 * no longer matches the decisions stored under it (`runs check` reports the run as BAD).
 *
 * The claim is a small file beside the store, created exclusively (`wx`), naming the process
 * that holds it; it is removed when the run stops. A process killed outright leaves its file
 * behind: a claim whose process is gone (same host, pid no longer alive) is taken over.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { DecidekitError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';
import { shellWord } from '../core/shell-word.js';
import type { Store } from './store.js';

/** Who claims a run, and how to tell whether another claimant is still alive. */
export interface RunClaimOwner {
  readonly pid: number;
  readonly host: string;
  /** True while a process with this pid runs on this host. */
  readonly isAlive: (pid: number) => boolean;
}

export interface RunClaim {
  readonly path: string;
  /** Removes the claim file (once; later calls do nothing). */
  release(): void;
}

export interface ClaimFile {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/**
 * The claim file of `runId` in the store at `storePath`, beside the store's real file: two
 * paths to one store (a symbolic link to it) name one claim.
 */
export function runClaimPath(storePath: string, runId: string): string {
  let real = storePath;
  try {
    real = realpathSync(storePath);
  } catch {
    // Not there (yet): its own path.
  }
  return `${real}.${runId}.lock`;
}

/** What a refused claim tells the user to do, and what was left undone. */
const RESUME_ADVICE = 'wait for it to finish, or stop it (Ctrl+C) and resume again; nothing was sent';

/**
 * Claims `runId` for this process. Throws `run_busy` naming the process that holds it when
 * that process is still alive (or runs on another host, where it cannot be checked), ending
 * with `advice` (default: how to resume it).
 */
export function claimRun(
  storePath: string,
  runId: string,
  owner: RunClaimOwner,
  since: string,
  advice: string = RESUME_ADVICE,
): RunClaim {
  const path = runClaimPath(storePath, runId);
  const content = `${JSON.stringify({ pid: owner.pid, host: owner.host, since } satisfies ClaimFile)}\n`;
  // A few times at most: another process may take over the same stale claim meanwhile.
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (err) {
      if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST'))
        throw new DecidekitError(
          'store_write_failed',
          `cannot claim run ${runId}: ${path} (${fileErrorWords(err, 'write failed')}); the folder of the run store must be writable`,
          { cause: err },
        );
      // An unreadable claim may be one being written this instant: it counts as held.
      const holder = readClaim(path);
      if (attempt > 1 || holder === null || holder.host !== owner.host || owner.isAlive(holder.pid))
        throw busy(runId, path, holder, advice);
      // Its process is gone (killed outright): take it over. Moved aside first, so of two
      // processes taking over the same stale claim only one moves it (the other finds it gone
      // and tries again, meeting the new claim).
      const aside = `${path}.stale-${randomBytes(4).toString('hex')}`;
      try {
        renameSync(path, aside);
      } catch {
        continue;
      }
      const moved = readClaim(aside);
      if (moved === null || !sameClaim(moved, holder)) {
        // A fresh claim was made between reading and moving: put it back, it is held.
        try {
          linkSync(aside, path);
        } catch {
          // Another claim is there already: it is held either way.
        }
        rmSync(aside, { force: true });
        throw busy(runId, path, moved, advice);
      }
      rmSync(aside, { force: true });
      continue;
    }
    try {
      writeSync(fd, content);
    } catch (err) {
      // An empty claim would read as held for ever.
      closeSync(fd);
      rmSync(path, { force: true });
      throw new DecidekitError(
        'store_write_failed',
        `cannot claim run ${runId}: ${path} (${fileErrorWords(err, 'write failed')}); the folder of the run store must be writable`,
        { cause: err },
      );
    }
    closeSync(fd);
    const mine: ClaimFile = { pid: owner.pid, host: owner.host, since };
    let released = false;
    return {
      path,
      release() {
        if (released) return;
        released = true;
        // Only our own claim: one taken over meanwhile (we were thought gone) is not ours to remove.
        const now = readClaim(path);
        if (now !== null && sameClaim(now, mine)) rmSync(path, { force: true });
      },
    };
  }
}

function sameClaim(a: ClaimFile, b: ClaimFile): boolean {
  return a.pid === b.pid && a.host === b.host && a.since === b.since;
}

/** The process sending `runId` now: its claim's holder while alive (or on another host, where it cannot be checked), else null. */
export function runHolder(storePath: string, runId: string, owner: RunClaimOwner): ClaimFile | null {
  const holder = readClaim(runClaimPath(storePath, runId));
  return holder !== null && (holder.host !== owner.host || owner.isAlive(holder.pid)) ? holder : null;
}

function readClaim(path: string): ClaimFile | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const { pid, host, since } = value as Record<string, unknown>;
    if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
    if (typeof host !== 'string' || typeof since !== 'string') return null;
    return { pid, host, since };
  } catch {
    // Gone meanwhile, or half written by a process killed while writing it.
    return null;
  }
}

function busy(runId: string, path: string, holder: ClaimFile | null, advice: string): DecidekitError {
  const who = holder === null ? '' : ` (pid ${holder.pid} on ${holder.host}, since ${holder.since})`;
  return new DecidekitError(
    'run_busy',
    `run ${runId} is being run by another decidekit process${who}: ${advice} (if that process is gone, delete ${shellWord(path)})`,
    { context: { runId, ...(holder === null ? {} : { pid: holder.pid, host: holder.host }) } },
  );
}

/**
 * Claims `runId` in `store` for this process: through the store's own claims when it keeps
 * them (a database shared by several machines), else with a claim file beside it.
 */
export function claimStoredRun(
  store: Store,
  runId: string,
  owner: RunClaimOwner,
  since: string,
  advice: string = RESUME_ADVICE,
): RunClaim {
  if (store.claims === undefined) return claimRun(store.path, runId, owner, since, advice);
  const held = store.claims.claim(runId, { pid: owner.pid, host: owner.host, since }, advice);
  return { path: store.path, release: () => held.release() };
}

/** `runHolder` of a store that may keep its claims itself. */
export function storedRunHolder(store: Store, runId: string, owner: RunClaimOwner): ClaimFile | null {
  return store.claims === undefined ? runHolder(store.path, runId, owner) : store.claims.holder(runId);
}
