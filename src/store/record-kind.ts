/**
 * Bench runs, answer audits and server probes share one store, each kind under its own ids.
 * An id is resolved here for every adapter, from the one thing an adapter answers: which
 * ids of a kind start with a string. An id that names no record of the kind asked for may
 * name one of another kind: it is then called what it is, with the command that shows it,
 * rather than "unknown".
 */
import { DecidekitError } from '../core/errors.js';
import { runsListCommand, showRecordHint } from '../core/command-hints.js';
import { words, type MessageWords } from '../core/message-words.js';
import { UnknownRunError } from './store-errors.js';

export type RecordKind = 'run' | 'audit' | 'probe';

/** The table that holds each kind of record, the same in every adapter. */
export const RECORD_TABLES: Readonly<Record<RecordKind, string>> = { run: 'runs', audit: 'audits', probe: 'probes' };

/**
 * Who asks for a record by id: the command as typed (as words when it names an option,
 * `bench` with `resume`), and the store path given to it, if any.
 */
export interface AskedBy {
  readonly command: string | MessageWords;
  readonly storeArg?: string | undefined;
}

/** The ids of `kind` that start with `prefix`, in id order, at most `limit`. */
export type IdsStartingWith = (kind: RecordKind, prefix: string, limit: number) => readonly string[];

const KINDS: Record<RecordKind, { readonly one: string; readonly many: string }> = {
  run: { one: 'a bench run', many: 'bench runs' },
  audit: { one: 'an answer audit', many: 'answer audits' },
  probe: { one: 'a server probe', many: 'server probes' },
};

/** The full id of the one record of `kind` that `given` names (see `Store.resolveId`). */
export function resolveRecordId(
  kind: RecordKind,
  given: string,
  store: { readonly path: string; readonly idsStartingWith: IdsStartingWith },
  askedBy?: AskedBy,
): string {
  return kind === 'run' ? resolveRunId(given, store, askedBy) : resolvePrefixedId(kind, given, store, askedBy);
}

function resolveRunId(
  prefix: string,
  store: { readonly path: string; readonly idsStartingWith: IdsStartingWith },
  askedBy: AskedBy | undefined,
): string {
  const p = prefix.trim();
  if (p === '')
    throw new UnknownRunError(`unknown run: an empty run id was given (see: ${runsListCommand(store.path)})`, {
      path: store.path,
    });
  const ids = store.idsStartingWith('run', p, 6);
  // The id itself sorts before every longer id it starts.
  if (ids[0] === p || ids.length === 1) return ids[0]!;
  if (ids.length === 0) {
    refuseIdOfOtherKind(store, p, 'run', askedBy);
    throw new UnknownRunError(
      `unknown run: no stored run id starts with ${JSON.stringify(p)} in ${store.path} (see: ${runsListCommand(store.path)})`,
      { path: store.path, id: p },
    );
  }
  const shown = ids.slice(0, 5).join(', ');
  throw new DecidekitError(
    'ambiguous_run',
    `ambiguous run id: ${JSON.stringify(p)} matches ${ids.length > 5 ? 'more than 5 runs' : `${ids.length} runs`} (${shown}${ids.length > 5 ? ', ...' : ''}); give more characters`,
    { context: { path: store.path, id: p } },
  );
}

/**
 * The one `KIND-` record id that `given` names: the id itself, else the only id starting
 * with it (tried with `KIND-` added when it lacks it).
 */
function resolvePrefixedId(
  kind: 'audit' | 'probe',
  given: string,
  store: { readonly path: string; readonly idsStartingWith: IdsStartingWith },
  askedBy: AskedBy | undefined,
): string {
  for (const p of given.startsWith(`${kind}-`) ? [given] : [given, `${kind}-${given}`]) {
    const ids = store.idsStartingWith(kind, p, 6);
    if (ids[0] === p) return p;
    if (ids.length === 1) return ids[0]!;
    if (ids.length > 1)
      throw new DecidekitError(
        'ambiguous_run',
        `${kind} id ${JSON.stringify(given)} matches ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', ...' : ''} (give more of the id)`,
        { context: { prefix: given } },
      );
  }
  refuseIdOfOtherKind(store, given, kind, askedBy);
  throw new UnknownRunError(
    `no ${kind} ${JSON.stringify(given)} in ${store.path} (see: ${runsListCommand(store.path)})`,
    {
      prefix: given,
    },
  );
}

/**
 * Throws when `given`, which names no `expected` record, names a record of another kind
 * (its id, or the only id of that kind starting with it); returns otherwise, for the
 * caller to say the id is unknown. Without `askedBy` the message names no command, and the
 * hint the store by its path.
 */
function refuseIdOfOtherKind(
  store: { readonly path: string; readonly idsStartingWith: IdsStartingWith },
  given: string,
  expected: RecordKind,
  askedBy?: AskedBy,
): void {
  for (const kind of (Object.keys(KINDS) as RecordKind[]).filter((k) => k !== expected)) {
    const ids = store.idsStartingWith(kind, given, 2);
    const id = ids[0] === given || ids.length === 1 ? ids[0]! : null;
    if (id === null) continue;
    const storeArg = askedBy === undefined ? store.path : askedBy.storeArg;
    const takes = askedBy === undefined ? '' : words`: '${askedBy.command}' takes ${KINDS[expected].many} only`;
    throw new DecidekitError(
      'unknown_run',
      words`${id} is ${KINDS[kind].one}, not ${KINDS[expected].one}${takes}. ${showRecordHint(id, storeArg)}`,
      { context: { prefix: given, id, kind } },
    );
  }
}
