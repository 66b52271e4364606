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
