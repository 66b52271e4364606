/**
 * Claims of runs in PostgreSQL: one process at a time sends a run's cases, on whichever
 * machine. The claim is a session advisory lock on the store's connection, so the server
 * drops it when the holder's connection ends (a process killed outright included): nothing
 * is left to clean up. `run_claims` says who holds it, for the message of a refused claim.
 */
import { DecidekitError } from '../../core/errors.js';
import type { ClaimHolder, StoreClaims } from '../store.js';
import type { PgConnection } from './connection.js';
import { CLAIM_LOCK } from './schema.js';

export class PgClaims implements StoreClaims {
  constructor(private readonly conn: PgConnection) {}

  claim(runId: string, holder: ClaimHolder, advice: string): { release(): void } {
    const { conn } = this;
    const got = conn.writing(runId, () =>
      conn.row<{ got: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS got', [CLAIM_LOCK, runId]),
    )!.got;
    if (!got) {
      const who = this.recorded(runId);
      const named = who === null ? '' : ` (pid ${who.pid} on ${who.host}, since ${who.since})`;
      throw new DecidekitError(
        'run_busy',
        `run ${runId} is being run by another decidekit process${named}: ${advice} (its claim in ${conn.path} ends with that process)`,
        { context: { runId, ...(who === null ? {} : { pid: who.pid, host: who.host }) } },
      );
    }
    conn.writing(runId, () =>
      conn.query(
        `INSERT INTO run_claims (run_id, pid, host, since) VALUES ($1, $2, $3, $4)
          ON CONFLICT (run_id) DO UPDATE SET pid = EXCLUDED.pid, host = EXCLUDED.host, since = EXCLUDED.since`,
        [runId, holder.pid, holder.host, holder.since],
      ),
    );
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        try {
          conn.query('DELETE FROM run_claims WHERE run_id = $1 AND pid = $2 AND host = $3 AND since = $4', [
            runId,
            holder.pid,
            holder.host,
            holder.since,
          ]);
          conn.query('SELECT pg_advisory_unlock($1, hashtext($2))', [CLAIM_LOCK, runId]);
        } catch {
          // The connection is gone: so is the lock.
        }
      },
    };
  }

  holder(runId: string): ClaimHolder | null {
    const { conn } = this;
    return conn.reading(() => {
      const free = conn.row<{ got: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS got', [
        CLAIM_LOCK,
        runId,
      ])!.got;
      if (free) {
        conn.query('SELECT pg_advisory_unlock($1, hashtext($2))', [CLAIM_LOCK, runId]);
        return null;
      }
      return this.recorded(runId);
    }, runId);
  }

  private recorded(runId: string): ClaimHolder | null {
    return this.conn.row<ClaimHolder>('SELECT pid, host, since FROM run_claims WHERE run_id = $1', [runId]) ?? null;
  }
}
