import { describe, expect, it } from 'vitest';
import { DecidekitError } from '../core/errors.js';
import { openStore } from './open-store.js';
import { loadStoreAdapter, postgresAdapter } from './store-adapters.js';

function errorOf(fn: () => unknown): DecidekitError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DecidekitError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('store adapters', () => {
  it('loads the PostgreSQL adapter only for a PostgreSQL URL, and openStore reaches it once loaded', async () => {
    // No server listens on port 1: the adapter, once loaded, refuses it in words.
    const url = 'postgresql://ann:s3cret@127.0.0.1:1/team';
    const before = errorOf(() => openStore(url));
    expect(before.message).toBe(
      "cannot open the run store postgresql://ann@127.0.0.1:1/team: the PostgreSQL adapter is not loaded (await loadStoreAdapter(url) before openStore, or import openStore from the library's entry, which loads it)",
    );
    await loadStoreAdapter('/tmp/runs.sqlite');
    expect(postgresAdapter()).toBeNull();
    await loadStoreAdapter(url);
    expect(postgresAdapter()).not.toBeNull();
    const after = errorOf(() => openStore(url));
    expect(after.message).not.toContain('adapter is not loaded');
    expect(after.message).toContain('127.0.0.1:1');
    expect(after.message).not.toContain('s3cret');
  }, 60_000);
});
