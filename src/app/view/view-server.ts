/**
 * `decidekit view`'s HTTP server (node:http): the store's pages at stable URLs, read only,
 * on 127.0.0.1 by default. Every page is rendered from the store as it is at the request, so
 * runs still being sent fill in; nothing is written. Each page names only this origin.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DecidekitError } from '../../core/errors.js';
import { refuseToListen } from '../../protocol/server/server.js';
import { renderViewError } from '../../reports/view/view-error.js';
import { SERVER_LINKS } from '../../core/view/view-links.js';
import { viewIndexPage, viewRecordsJson } from './view-index-page.js';
import { RunPageCache, viewRunPage } from './view-run-page.js';
import { viewComparePage } from './view-compare-page.js';
import { viewModelAddress } from './view-model-page.js';
import { viewAuditPage, viewProbePage } from './view-record-pages.js';

export interface ViewServerOptions {
  readonly storePath: string;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** The environment, for a run's dataset (the state previews of a comparison). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface ViewServer {
  /** `http://host:port/`. */
  readonly url: string;
  close(): Promise<void>;
}

type Page = { readonly status: number; readonly type: string; readonly body: string };

const html = (body: string, status = 200): Page => ({ status, type: 'text/html; charset=utf-8', body });

/** The page a request asks for. */
async function route(options: ViewServerOptions, cache: RunPageCache, url: URL): Promise<Page> {
  const { storePath } = options;
  const parts = url.pathname
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  const [first, second] = parts;
  if (parts.length === 0) return html(viewIndexPage(storePath, url.searchParams, SERVER_LINKS, { live: true }));
  if (parts.length === 2 && first === 'api' && second === 'records')
    return { status: 200, type: 'application/json; charset=utf-8', body: viewRecordsJson(storePath) };
  if (parts.length === 2 && first === 'runs')
    return html(viewRunPage(storePath, second!, url.searchParams, SERVER_LINKS, cache));
  if (parts.length === 1 && first === 'compare')
    return html(await viewComparePage(storePath, url.searchParams, SERVER_LINKS, options.env));
  if (parts.length === 2 && first === 'models') {
    const page = viewModelAddress(storePath, second!, SERVER_LINKS);
    return html(page.html, page.status);
  }
  if (parts.length === 2 && first === 'audits') return html(viewAuditPage(storePath, second!, SERVER_LINKS));
  if (parts.length === 2 && first === 'probes') return html(viewProbePage(storePath, second!, SERVER_LINKS));
  return html(renderViewError(SERVER_LINKS, storePath, 'No such page', `nothing is served at ${url.pathname}`), 404);
}

const NOT_FOUND_CODES = new Set(['unknown_run', 'ambiguous_run', 'store_missing']);

/** A request that fails is a page saying why, in words: 404 for an unknown record, 400 otherwise. */
function errorPage(storePath: string, err: unknown): Page {
  if (err instanceof DecidekitError)
    return html(
      renderViewError(SERVER_LINKS, storePath, 'Cannot show this page', err.message),
      NOT_FOUND_CODES.has(err.code) ? 404 : 400,
    );
  if (err instanceof URIError)
    return html(
      renderViewError(SERVER_LINKS, storePath, 'Bad address', 'the address is not valid percent-encoding'),
      400,
    );
  const message = err instanceof Error ? err.message : String(err);
  return html(renderViewError(SERVER_LINKS, storePath, 'Cannot show this page', message), 500);
}

/**
 * What a page may load: this origin only; the pages' own inlined script and styles run, no
 * other origin is asked for anything, and no other site may frame them.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The Host names a request may give: this server's own address and port (127.0.0.1, localhost,
 * [::1] or the host it was told to listen on). Any other name is refused, so a web page whose
 * name was made to resolve to this machine (DNS rebinding) cannot read the store. Listening on
 * every interface, any address literal of this port is accepted too (rebinding needs a name).
 */
function hostAllowed(listenHost: string, port: number, given: string | undefined): boolean {
  if (given === undefined) return false;
  const host = given.toLowerCase();
  const own = listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', own.toLowerCase()]);
  const colon = host.lastIndexOf(':');
  if (colon < 0 || host.slice(colon + 1) !== String(port)) return false;
  const name = host.slice(0, colon);
  if (names.has(name)) return true;
  return WILDCARD_HOSTS.has(listenHost) && (/^\d+\.\d+\.\d+\.\d+$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name));
}

async function answer(
  options: ViewServerOptions,
  cache: RunPageCache,
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
): Promise<void> {
  let page: Page;
  const listenHost = options.host ?? '127.0.0.1';
  if (!hostAllowed(listenHost, port, req.headers.host)) {
    page = {
      status: 421,
      type: 'text/plain; charset=utf-8',
      body: `decidekit view answers only requests addressed to itself (such as 127.0.0.1:${port} or localhost:${port}); this one names ${JSON.stringify(req.headers.host ?? '')} as its host, so it was refused\n`,
    };
  } else if (req.method !== 'GET' && req.method !== 'HEAD') {
    page = { status: 405, type: 'text/plain; charset=utf-8', body: 'decidekit view is read only: GET pages only\n' };
    res.setHeader('allow', 'GET, HEAD');
  } else {
    try {
      page = await route(options, cache, new URL(req.url ?? '/', 'http://view.invalid'));
    } catch (err) {
      page = errorPage(options.storePath, err);
    }
  }
  res.writeHead(page.status, {
    'content-type': page.type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'referrer-policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : page.body);
}

/** Starts serving; resolves once listening. Throws `cannot_listen` when the address cannot be listened on. */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const cache = new RunPageCache();
  let port = 0;
  const server = createServer((req, res) => {
    void answer(options, cache, req, res, port);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(refuseToListen(err, host, options.port)));
    server.listen(options.port, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
