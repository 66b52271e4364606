import { describe, expect, it, vi } from 'vitest';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('store adapters', () => {
  it('loads the PostgreSQL adapter only for a PostgreSQL URL, and openStore reaches it once loaded', async () => {
    // A fresh module graph: another test file in this process may have loaded the adapter.
    vi.resetModules();
    const { openStore } = await import('./open-store.js');
    const { loadStoreAdapter, postgresAdapter } = await import('./store-adapters.js');
    // No server listens on port 1: the adapter, once loaded, refuses it in words.
    const url = 'postgresql://ann:s3cret@127.0.0.1:1/team';
    expect(messageOf(() => openStore(url))).toBe(
      "cannot open the run store postgresql://ann@127.0.0.1:1/team: the PostgreSQL adapter is not loaded (await loadStoreAdapter(url) before openStore, or import openStore from the library's entry, which loads it)",
    );
    await loadStoreAdapter('/tmp/runs.sqlite');
    expect(postgresAdapter()).toBeNull();
    await loadStoreAdapter(url);
    expect(postgresAdapter()).not.toBeNull();
    const after = messageOf(() => openStore(url));
    expect(after).toContain('cannot reach the run store postgresql://ann@127.0.0.1:1/team');
    expect(after).not.toContain('s3cret');
  }, 60_000);
});
