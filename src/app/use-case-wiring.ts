/**
 * What every use case that sends requests is wired with, and the defaults a library caller
 * gets when it leaves them out: this decidekit's version, no stop signal, `performance.now`.
 * The CLI passes its own (a Ctrl+C signal, say).
 */
import { TOOL_VERSION } from '../core/tool-version.js';

export interface UseCaseWiring {
  /** Recorded with what the use case stores. Default: this decidekit's version. */
  readonly toolVersion: string;
  /** Aborted: stop sending, keep what finished. Default: never aborted. */
  readonly signal: AbortSignal;
  /** Monotonic milliseconds. Default `performance.now`. */
  readonly now: () => number;
}

/** The options with the wiring they left out filled in. */
export function wiringOf<O extends Partial<UseCaseWiring>>(options: O): O & UseCaseWiring {
  return {
    ...options,
    toolVersion: options.toolVersion ?? TOOL_VERSION,
    signal: options.signal ?? new AbortController().signal,
    now: options.now ?? (() => performance.now()),
  };
}
