/**
 * Bench runs, answer audits and server probes share one store file, each kind in its own
 * table. An id that names no record of the kind asked for may name one of another kind:
 * it is then called what it is, with the command that shows it, rather than "unknown".
 */
import type Database from 'better-sqlite3';
import { DecidekitError } from '../core/errors.js';
import { shellWord } from '../core/shell-word.js';

export type RecordKind = 'run' | 'audit' | 'probe';

/** Who asks for a record by id: the command as typed, and the `--store` given to it, if any. */
export interface AskedBy {
  readonly command: string;
  readonly storeArg?: string | undefined;
}

const KINDS: Record<RecordKind, { readonly table: string; readonly one: string; readonly many: string }> = {
  run: { table: 'runs', one: 'a bench run', many: 'bench runs' },
  audit: { table: 'audits', one: 'an answer audit', many: 'answer audits' },
  probe: { table: 'probes', one: 'a server probe', many: 'server probes' },
};

/**
 * Throws when `given`, which names no `expected` record, names a record of another kind
 * (its id, or the only id of that kind starting with it); returns otherwise, for the
 * caller to say the id is unknown. Without `askedBy` the message names no command, and the
 * hint the store by its path.
 */
export function refuseIdOfOtherKind(
  db: Database.Database,
  path: string,
  given: string,
  expected: RecordKind,
  askedBy?: AskedBy,
): void {
  for (const kind of (Object.keys(KINDS) as RecordKind[]).filter((k) => k !== expected)) {
    const ids = (
      db
        .prepare(`SELECT id FROM ${KINDS[kind].table} WHERE substr(id, 1, length(@p)) = @p ORDER BY id LIMIT 2`)
        .all({ p: given }) as { id: string }[]
    ).map((r) => r.id);
    const id = ids[0] === given || ids.length === 1 ? ids[0]! : null;
    if (id === null) continue;
    const storeArg = askedBy === undefined ? path : askedBy.storeArg;
    const store = storeArg === undefined ? '' : ` --store ${shellWord(storeArg)}`;
    const takes = askedBy === undefined ? '' : `: '${askedBy.command}' takes ${KINDS[expected].many} only`;
    throw new DecidekitError(
      'unknown_run',
      `${id} is ${KINDS[kind].one}, not ${KINDS[expected].one}${takes}. ` +
        `Show it with: decidekit runs show ${id}${store} (add --json for the whole record)`,
      { context: { prefix: given, id, kind } },
    );
  }
}
