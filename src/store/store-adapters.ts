/**
 * Which adapters `openStore` has: SQLite's always; the PostgreSQL adapter (fifteen modules)
 * once `loadStoreAdapter` has loaded it for a PostgreSQL URL, or the library's entry has
 * loaded it up front (`open-store-with-postgres.ts`). This module imports neither adapter, so
 * the CLI can ask for the one a command's store needs before it runs, and a command on a
 * SQLite store (the usual) never loads PostgreSQL's.
 */
import { isPostgresUrl } from '../core/store-url.js';
import type { OpenStoreOptions } from './open-store-options.js';
import type { Store } from './store.js';

/** The PostgreSQL adapter's opener (`openPostgresStore`). */
export type PostgresStoreOpener = (url: string, options: OpenStoreOptions) => Store;

let openPostgres: PostgresStoreOpener | null = null;

/** Makes `openStore` open PostgreSQL URLs with `opener`. */
export function usePostgresAdapter(opener: PostgresStoreOpener): void {
  openPostgres = opener;
}

/** The PostgreSQL adapter's opener, null until loaded. */
export function postgresAdapter(): PostgresStoreOpener | null {
  return openPostgres;
}

/**
 * Loads the adapter a store at `location` needs, once: the PostgreSQL adapter for a
 * PostgreSQL URL (SQLite's is always loaded).
 */
export async function loadStoreAdapter(location: string): Promise<void> {
  if (openPostgres === null && isPostgresUrl(location))
    usePostgresAdapter((await import('./postgres/open-postgres-store.js')).openPostgresStore);
}
