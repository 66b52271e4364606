/**
 * A store location that is a PostgreSQL URL (`postgresql://…` or `postgres://…`) rather than
 * a file path, and how such a URL is shown: never with its password, which would otherwise
 * reach messages, hints, stored configurations and reports.
 */

/** True when `location` names a PostgreSQL store (a URL), not a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location.trim());
}

/**
 * The URL as decidekit shows it: `postgresql://user@host:port/db`, without the password
 * (in the user part or as a `password` parameter); other parameters (`sslmode`) stay, so a
 * hint that repeats it still connects the same way. A URL that does not parse is shown as
 * its scheme and `…` only: it may hold a password where it cannot be found.
 */
export function shownStoreUrl(url: string): string {
  const text = url.trim();
  if (!URL.canParse(text)) return `${schemeOf(text)}//…`;
  const u = new URL(text);
  u.password = '';
  u.searchParams.delete('password');
  const user = u.username === '' ? '' : `${u.username}@`;
  const port = u.port === '' ? '' : `:${u.port}`;
  const query = u.searchParams.size === 0 ? '' : `?${u.searchParams.toString()}`;
  return `${u.protocol}//${user}${u.hostname}${port}${u.pathname}${query}`;
}

/** True when the URL carries a password itself (in its user part or as a parameter). */
export function urlHasPassword(url: string): boolean {
  const text = url.trim();
  if (!URL.canParse(text)) return false;
  const u = new URL(text);
  return u.password !== '' || u.searchParams.has('password');
}

function schemeOf(text: string): string {
  return /^postgres:/i.test(text) ? 'postgres:' : 'postgresql:';
}

/** A store location as decidekit shows it: a file path as it is, a PostgreSQL URL without its password. */
export function shownStoreLocation(location: string): string {
  return isPostgresUrl(location) ? shownStoreUrl(location) : location;
}

/**
 * What is wrong with a store location that is meant as a URL, in words naming the bad part
 * (the scheme, the host or the port) and never the password; null when nothing is. A
 * location without `scheme://` is a file path and is never wrong here.
 */
export function storeUrlProblem(location: string): string | null {
  const text = location.trim();
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(text)?.[1];
  if (scheme === undefined) return null;
  if (!isPostgresUrl(text))
    return `the scheme ${JSON.stringify(scheme)} is not a store's: give postgresql://user@host:port/database or a SQLite file path`;
  const { host, port } = authorityOf(text.slice(scheme.length + 2));
  if (port !== null && !/^\d{1,5}$/.test(port))
    return `the port ${JSON.stringify(port)} is not a number from 1 to 65535`;
  if (port !== null && (Number(port) < 1 || Number(port) > 65535))
    return `the port ${JSON.stringify(port)} is not a number from 1 to 65535`;
  if (!URL.canParse(text) || /[\s"<>\\^`{|}]/.test(host))
    return URL.canParse(`postgresql://${host}`) && !/\s/.test(host)
      ? 'it is not a valid URL (is a character in the user name or password not percent-encoded, e.g. @ as %40?)'
      : `the host ${JSON.stringify(host)} is not a host name or address`;
  return null;
}

/** The host and port (null when absent) of a URL's part after `scheme://`, user and password dropped. */
function authorityOf(rest: string): { host: string; port: string | null } {
  const end = rest.search(/[/?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const ipv6 = /^(\[[^\]]*\])(?::(.*))?$/.exec(hostPort);
  if (ipv6 !== null) return { host: ipv6[1]!, port: ipv6[2] ?? null };
  const colon = hostPort.lastIndexOf(':');
  if (colon === -1) return { host: hostPort, port: null };
  const port = hostPort.slice(colon + 1);
  return { host: hostPort.slice(0, colon), port: port === '' ? null : port };
}
