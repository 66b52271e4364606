/**
 * Where `decidekit view`'s pages link to: the server's stable URLs (`/runs/ID`, `/compare?runs=A,B`)
 * or a bundle's files side by side in one folder, so every page renders the same either way.
 * A link the bundle did not write is null, and the page shows the text without a link.
 */
export interface ViewLinks {
  readonly index: string;
  run(id: string): string | null;
  compare(ids: readonly string[]): string | null;
  model(name: string): string | null;
  audit(id: string): string | null;
  probe(id: string): string | null;
}

/** The server's URLs. */
export const SERVER_LINKS: ViewLinks = {
  index: '/',
  run: (id) => `/runs/${encodeURIComponent(id)}`,
  compare: (ids) => `/compare?runs=${ids.map(encodeURIComponent).join(',')}`,
  model: (name) => `/models/${encodeURIComponent(name)}`,
  audit: (id) => `/audits/${encodeURIComponent(id)}`,
  probe: (id) => `/probes/${encodeURIComponent(id)}`,
};

/** A file name for a bundle page: the characters of an id or model name that are safe in any file system, kept. */
export function bundleFileName(kind: string, name: string): string {
  return `${kind}-${name.replace(/[^A-Za-z0-9._-]/g, '_')}.html`;
}
