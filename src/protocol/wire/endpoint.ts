import type { EndpointIdentity } from '../../core/endpoint-identity.js';
import { InvalidBaseUrlError } from '../client/errors.js';
import { echoOf } from '../../core/echo-text.js';

function parseBase(baseUrl: string): URL {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl.trim())) {
    // Shown without anything before an '@' (it could be a user and password).
    const shown = baseUrl
      .trim()
      .replace(/^\/+/, '')
      .replace(/^[^@/]*@/, '');
    throw new InvalidBaseUrlError(
      `invalid base URL: ${JSON.stringify(shown)} has no scheme; add http:// (http://${shown})`,
    );
  }
  if (/%(?![0-9a-f]{2})/i.test(baseUrl)) {
    throw new InvalidBaseUrlError(
      `invalid base URL: ${JSON.stringify(redactUrl(baseUrl))} has a '%' that is not followed by two hex digits (write %25 for a literal %)`,
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new InvalidBaseUrlError(
      `invalid base URL: ${JSON.stringify(redactUrl(baseUrl))} is not a URL (expected e.g. http://127.0.0.1:8080)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidBaseUrlError(
      `invalid base URL: ${redactUrl(baseUrl)} uses ${url.protocol.replace(/:$/, '')} (only http and https are supported)`,
    );
  }
  refuseInvalidHost(url, baseUrl);
  url.hash = '';
  return url;
}

/** Characters of a URL a message shows; a longer one is cut, saying how long it was. */
const SHOWN_URL_CHARACTERS = 80;

/** A URL as a message shows it: without credentials, query or fragment, and cut when long (the one cut of echoed input). */
export function shownUrl(url: string): string {
  return echoOf(redactUrl(url), SHOWN_URL_CHARACTERS);
}

/** Characters of a query key a message shows. */
const SHOWN_KEY_CHARACTERS = 24;

/**
 * The query's keys a message may name: only those given with `=` (a bare `?TOKEN` may itself
 * be the secret), as typed (percent-encoded, so no control reaches the terminal), each cut.
 */
function shownQueryKeys(search: string): string {
  const keys = search
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => part.includes('='))
    .map((part) => part.slice(0, part.indexOf('=')))
    .filter((key) => key !== '');
  return [...new Set(keys)].map((key) => `${echoOf(key, SHOWN_KEY_CHARACTERS)}=…`).join('&');
}

/** A host name has at most 253 characters, and each of its dot-separated labels at most 63 (RFC 1035). */
const MAX_HOST_CHARACTERS = 253;
const MAX_LABEL_CHARACTERS = 63;

/**
 * Refuses a host no resolver would take, before anything is sent (every case would fail
 * "host not found", echoing the host each time).
 */
function refuseInvalidHost(url: URL, baseUrl: string): void {
  const host = url.hostname;
  // An IPv6 literal is bracketed and checked by the URL parser itself.
  if (host.startsWith('[')) return;
  const tooLong = host.length > MAX_HOST_CHARACTERS;
  const longLabel = host.split('.').find((label) => label.length > MAX_LABEL_CHARACTERS);
  if (!tooLong && longLabel === undefined) return;
  throw new InvalidBaseUrlError(
    `invalid base URL: ${shownUrl(baseUrl)}: ${
      tooLong
        ? `its host has ${host.length.toLocaleString('en-US')} characters (a host name has at most ${MAX_HOST_CHARACTERS})`
        : `a part of its host has ${longLabel!.length.toLocaleString('en-US')} characters (each dot-separated part of a host name has at most ${MAX_LABEL_CHARACTERS})`
    }`,
  );
}

/**
 * The base URL a command takes: a valid http(s) URL without a query or a fragment. A stored
 * run or audit keeps only the endpoint identity, so a query could not be sent again on a
 * resume, nor told apart when runs are compared; and a query often carries a secret (give a
 * key as a key). The message names the query's keys given with a value, never the values.
 */
export function checkCommandBaseUrl(baseUrl: string): void {
  parseBase(baseUrl);
  const url = new URL(baseUrl.trim());
  if (url.search !== '' || baseUrl.trim().endsWith('?')) {
    const names = shownQueryKeys(url.search);
    throw new InvalidBaseUrlError(
      `invalid base URL: ${shownUrl(baseUrl)} carries a query${names === '' ? '' : ` (?${names})`}: a base URL has none (a stored run keeps no query, so a resume could not send it again)`,
    );
  }
  if (url.hash !== '' || baseUrl.includes('#'))
    throw new InvalidBaseUrlError(
      `invalid base URL: ${shownUrl(baseUrl)} carries a fragment (#…): a base URL has none`,
    );
}

export { withoutCredentials, type UrlWithoutCredentials } from '../../core/url-credentials.js';

/** The server's root path: the base path without trailing `/` and without a final `/v1`. */
function rootPath(url: URL): string {
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/v1/systemone')) path = path.slice(0, -'/v1/systemone'.length);
  else if (path.endsWith('/v1')) path = path.slice(0, -'/v1'.length);
  return path;
}

function withPath(url: URL, path: string): string {
  const out = new URL(url.href);
  out.pathname = path;
  return out.href;
}

/**
 * The System One endpoint for a base URL: strip trailing `/`; append `/v1` unless the path
 * already ends in `/v1`; append `/systemone`. A base that already ends in `/v1/systemone`
 * is kept as it is (users paste the full endpoint). Credentials and query are kept for the
 * request itself; print only `redactUrl(...)` of the result.
 */
export function endpointFor(baseUrl: string): string {
  const url = parseBase(baseUrl);
  return withPath(url, `${rootPath(url)}/v1/systemone`);
}

/** `GET /health` of the server behind a base URL. */
export function healthUrlFor(baseUrl: string): string {
  const url = parseBase(baseUrl);
  return withPath(url, `${rootPath(url)}/health`);
}

/** `GET /v1/models` of the server behind a base URL. */
export function modelsUrlFor(baseUrl: string): string {
  const url = parseBase(baseUrl);
  return withPath(url, `${rootPath(url)}/v1/models`);
}

/** `GET /metrics` of the server behind a base URL. */
export function metricsUrlFor(baseUrl: string): string {
  const url = parseBase(baseUrl);
  return withPath(url, `${rootPath(url)}/metrics`);
}

/**
 * A URL safe to print or store: scheme, host, port and path only (no credentials, query
 * or fragment). An unparsable string becomes `<invalid url>` so nothing secret leaks.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return '<invalid url>';
  }
  const port = u.port === '' ? '' : `:${u.port}`;
  return `${u.protocol}//${u.hostname}${port}${u.pathname}`;
}

/** The endpoint's identity for stored runs: scheme, host, port (default filled in), path. */
export function endpointIdentity(endpoint: string): EndpointIdentity {
  const u = parseBase(endpoint);
  const scheme = u.protocol.replace(/:$/, '');
  const port = u.port === '' ? (scheme === 'https' ? 443 : 80) : Number(u.port);
  return { scheme, host: u.hostname.toLowerCase(), port, path: u.pathname };
}

/** Replaces the host in reports run with `--redact`. */
export const REDACTED_HOST = '<redacted>';

/** The identity with the host hidden, for `--redact` reports. */
export function redactedIdentity(identity: EndpointIdentity): EndpointIdentity {
  return { ...identity, host: REDACTED_HOST };
}

/**
 * `text` with the identity's host shown as `<redacted>` wherever it appears (a message that
 * names the server, for `--redact`); an IPv6 host in brackets too.
 */
export function hideHost(text: string, identity: EndpointIdentity): string {
  if (identity.host === '' || identity.scheme === 'embedded') return text;
  const bare = identity.host.replace(/^\[|\]$/g, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Whole host names only: `a.b` is not hidden inside `xa.b.c`.
  return text.replace(new RegExp(`(?<![\\w.-])(\\[${bare}\\]|${bare})(?![\\w-]|\\.\\w)`, 'gi'), REDACTED_HOST);
}

function hostAndPort(identity: EndpointIdentity, redactHost: boolean): string {
  const host = redactHost
    ? REDACTED_HOST
    : identity.host.includes(':') && !identity.host.startsWith('[')
      ? `[${identity.host}]`
      : identity.host;
  // Port 0 is no server's port: the built-in server's identity (`embedded://reference-server`).
  return `${identity.scheme.replace(/:$/, '')}://${host}${identity.port === 0 ? '' : `:${identity.port}`}`;
}

/**
 * A stored endpoint as text, `scheme://host:port/path`, for reports and messages; never
 * credentials, query or fragment (the identity has none). `redactHost` shows `<redacted>`.
 */
export function formatEndpoint(identity: EndpointIdentity, redactHost = false): string {
  const path = identity.path.startsWith('/') ? identity.path : `/${identity.path}`;
  return `${hostAndPort(identity, redactHost)}${path}`;
}

/** An endpoint in a sentence: the built-in reference server by name, any other as `formatEndpoint` writes it. */
export function describeEndpoint(identity: EndpointIdentity, redactHost = false): string {
  return identity.scheme === 'embedded' ? 'the built-in reference server' : formatEndpoint(identity, redactHost);
}

/**
 * A base URL back from a stored endpoint identity: the endpoint without its final
 * `/v1/systemone`, so `endpointFor(baseUrlOf(identity))` is the endpoint again.
 */
export function baseUrlOf(identity: EndpointIdentity): string {
  return `${hostAndPort(identity, false)}${identity.path.replace(/\/v1\/systemone$/, '')}`;
}
