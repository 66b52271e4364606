/**
 * Which server a use case asks (bench, live, probe, audit): one at a base URL, or the
 * reference server started in-process, and how the embedded one is stored.
 */
import type { EndpointIdentity } from '../core/endpoint-identity.js';
import { OptionError } from '../core/errors.js';
import { optionMention as option, words } from '../core/message-words.js';
import { InvalidBaseUrlError } from '../protocol/client/errors.js';
import { checkCommandBaseUrl } from '../protocol/wire/endpoint.js';

/** The built-in model the embedded reference server answers with when none is named. */
export const DEFAULT_EMBEDDED_MODEL = 'heuristic';

/** The stored identity of the in-process reference server (its port changes every run). */
export const EMBEDDED_IDENTITY: EndpointIdentity = {
  scheme: 'embedded',
  host: 'reference-server',
  port: 0,
  path: '/v1/systemone',
};

/** The server a use case sends to: the embedded reference server, or one at a base URL. */
export type ServerPlan =
  | { readonly kind: 'embedded'; readonly model: string }
  | { readonly kind: 'remote'; readonly baseUrl: string; readonly model: string | null; readonly apiKey?: string };

/**
 * Refuses, before any work, a base URL a command cannot use (`checkCommandBaseUrl`: not
 * http(s), a host no resolver takes, a query or a fragment), as an option error.
 */
export function refuseUnusableBaseUrl(baseUrl: string | undefined): void {
  if (baseUrl === undefined) return;
  try {
    checkCommandBaseUrl(baseUrl);
  } catch (err) {
    if (err instanceof InvalidBaseUrlError) throw new OptionError('baseUrl', words`${option('baseUrl')}: ${err}`);
    throw err;
  }
}
