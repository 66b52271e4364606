/**
 * `openStore` with the PostgreSQL adapter loaded up front: the library's opener, so that a
 * program opens a `postgresql://` store as it opens a SQLite file, with no load to await
 * first. The CLI opens stores through `open-store.ts` and loads the PostgreSQL adapter only
 * for a PostgreSQL store.
 */
import { openPostgresStore } from './postgres/open-postgres-store.js';
import { openStore, withStore, type OpenStoreOptions } from './open-store.js';
import { usePostgresAdapter } from './store-adapters.js';

usePostgresAdapter(openPostgresStore);

export { openStore, withStore, type OpenStoreOptions };
