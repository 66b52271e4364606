import { createHash } from 'node:crypto';
import type { RunConfig } from '../core/bench/run.js';
import { canonicalJson } from '../core/canonical-json.js';
import { workIdentityOf } from '../core/bench/run-work.js';

/** Hex characters kept of the sha256: 64 bits, plenty for telling configurations apart. */
export const FINGERPRINT_HEX_LENGTH = 16;

/**
 * What makes two runs comparable: the same cases of the same dataset revision, the same
 * questions, the same model behind the same endpoint. Settings that do not change answers
 * (parallelism, timeout, retries, price) are left out.
 *
 * - Case ids are a set: the same cases in another order give the same fingerprint.
 * - A filtered run has fewer case ids, so it never matches a full run.
 * - The embedded reference server listens on a new loopback port every run, so it is
 *   identified by its built-in model instead of its endpoint.
 */
export function fingerprintInput(config: RunConfig): unknown {
  return {
    ...(workIdentityOf(config) as object),
    model: config.model,
    endpoint:
      config.embeddedServer === null
        ? {
            scheme: config.endpoint.scheme,
            host: config.endpoint.host,
            port: config.endpoint.port,
            path: config.endpoint.path,
          }
        : { embedded: config.embeddedServer.model },
  };
}

/** Short sha256 of the canonical JSON of `fingerprintInput(config)`. */
export function fingerprintOf(config: RunConfig): string {
  return createHash('sha256')
    .update(canonicalJson(fingerprintInput(config)))
    .digest('hex')
    .slice(0, FINGERPRINT_HEX_LENGTH);
}
