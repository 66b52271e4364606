/**
 * The first contact with a PostgreSQL store: one statement, and what keeps it from working
 * in words, before any work (nothing listening, a host that does not resolve, credentials
 * refused, the database missing). The password is in none of them: the URL is shown
 * without it, and a driver message that repeats it has it masked.
 */
import { DecidekitError } from '../../core/errors.js';
import { shellWord } from '../../core/shell-word.js';
import type { PgConnection } from './connection.js';
import { PgQueryError } from './sync-client.js';

/** Throws the reason in words when the store's server cannot be used; returns when it answers. */
export function refuseUnusableServer(conn: PgConnection, url: string): void {
  try {
    conn.query('SELECT 1');
  } catch (err) {
    if (!(err instanceof PgQueryError)) throw err;
    throw connectFailure(conn.path, url, err);
  }
}

function connectFailure(path: string, url: string, err: PgQueryError): DecidekitError {
  const where = whereOf(url);
  const context = { path };
  const said = masked(err.message, url);
  if (noPasswordGiven(err))
    return new DecidekitError(
      'store_refused',
      `the PostgreSQL server at ${where.hostPort} refused the credentials of user ${where.user} for the run store ${path} (it wants a password and none was given: give it in PGPASSWORD or in ~/.pgpass)`,
      { context, cause: err },
    );
  switch (err.code) {
    case 'ECONNREFUSED':
      return new DecidekitError(
        'store_unreachable',
        `cannot reach the run store ${path}: nothing accepts connections at ${where.hostPort} (is PostgreSQL running there, and is that its host and port?)`,
        { context, cause: err },
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new DecidekitError(
        'store_unreachable',
        `cannot reach the run store ${path}: the host name ${where.host} is not known (check the host in the store URL)`,
        { context, cause: err },
      );
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
      return new DecidekitError(
        'store_unreachable',
        `cannot reach the run store ${path}: no route to ${where.hostPort} (check the host and the network)`,
        { context, cause: err },
      );
    case '28P01':
    case '28000':
      return new DecidekitError(
        'store_refused',
        `the PostgreSQL server at ${where.hostPort} refused the credentials of user ${where.user} for the run store ${path} (give the password in PGPASSWORD or in ~/.pgpass, or check the user: ${said})`,
        { context, cause: err },
      );
    case '3D000':
      return new DecidekitError(
        'store_no_database',
        `the PostgreSQL server at ${where.hostPort} has no database ${where.database} for the run store ${path} (create it first, e.g. ${createdbCommand(where)}; decidekit makes its tables in it)`,
        { context, cause: err },
      );
    default:
      if (/timeout/i.test(err.message))
        return new DecidekitError(
          'store_unreachable',
          `cannot reach the run store ${path}: ${where.hostPort} did not answer in time (is PostgreSQL running there, and does a firewall let the connection through?)`,
          { context, cause: err },
        );
      return new DecidekitError('store_unreadable', `cannot open the run store ${path}: ${said}`, {
        context,
        cause: err,
      });
  }
}

/** The server asked for a password and none was given (none in the URL, no PGPASSWORD, no ~/.pgpass). */
function noPasswordGiven(err: PgQueryError): boolean {
  // scram-sha-256: the driver refuses to go on without one; md5: it sends none, and the server refuses.
  if (err.passwordMissing) return true;
  return /client password must be a string|password must be a string|no password (was )?(supplied|given)/i.test(
    err.message,
  );
}

interface Where {
  readonly host: string;
  readonly hostPort: string;
  readonly user: string;
  readonly database: string;
  readonly port: string;
}

function whereOf(url: string): Where {
  const text = url.trim();
  const u = URL.canParse(text) ? new URL(text) : null;
  const host = u === null || u.hostname === '' ? 'localhost' : u.hostname;
  const port = u === null || u.port === '' ? '5432' : u.port;
  const user = u === null || u.username === '' ? '(the default user)' : decodeURIComponent(u.username);
  const database = u === null ? '' : decodeURIComponent(u.pathname.replace(/^\//, ''));
  return { host, port, hostPort: `${host}:${port}`, user, database: database === '' ? user : database };
}

/** `createdb -h HOST -p PORT [-U USER] DB`, each word quoted for a shell when it must be. */
function createdbCommand(where: Where): string {
  const user = where.user.startsWith('(') ? '' : ` -U ${shellWord(where.user)}`;
  return `createdb -h ${shellWord(where.host)} -p ${where.port}${user} ${shellWord(where.database)}`;
}

/** A driver's message with the URL's password masked, should it repeat it. */
function masked(message: string, url: string): string {
  const text = url.trim();
  if (!URL.canParse(text)) return message;
  const u = new URL(text);
  const secrets = [u.password, safeDecode(u.password), u.searchParams.get('password') ?? ''].filter(
    (s) => s.length > 0,
  );
  return secrets.reduce((m, s) => m.split(s).join('***'), message);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
