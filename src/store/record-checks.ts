/**
 * What every store refuses before it writes a record, whatever its adapter: an endpoint
 * identity that could carry a secret (the message never repeats the value), and a run
 * whose case set names a case twice.
 */
import type { RunConfig } from '../core/bench/run.js';
import { DecidekitError } from '../core/errors.js';

/**
 * Refuses an endpoint identity whose host or path could carry a secret (credentials, query,
 * fragment); `message` says what could not be stored and never repeats the value.
 */
export function refuseEndpointSecrets(e: { readonly host: string; readonly path: string }, message: string): void {
  if (e.host === '' || /[@/?#\s]/.test(e.host) || /[?#\s]/.test(e.path))
    throw new DecidekitError('invalid_run', message);
}

/** Refuses a run the store cannot keep: an endpoint identity beyond scheme, host, port and path, or a case named twice. */
export function refuseUnstorableRun(config: RunConfig): void {
  refuseMalformedEndpoint(config);
  const seen = new Set<string>();
  for (const id of config.caseIds) {
    if (seen.has(id))
      throw new DecidekitError(
        'invalid_run',
        `cannot store run: case ${JSON.stringify(id)} appears twice in the case set`,
      );
    seen.add(id);
  }
}

function refuseMalformedEndpoint(config: RunConfig): void {
  const { host, path, scheme, port } = config.endpoint;
  const problems: string[] = [];
  if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) problems.push('scheme is not a URL scheme');
  if (host === '' || /[@/?#\s]/.test(host)) problems.push('host carries more than a host name');
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('port is not a port number');
  if (!path.startsWith('/') || /[?#\s]/.test(path)) problems.push('path carries a query, fragment or whitespace');
  if (problems.length > 0) {
    throw new DecidekitError(
      'invalid_run',
      `cannot store run: endpoint identity ${problems.join('; ')} (store only scheme, host, port and path)`,
    );
  }
}
