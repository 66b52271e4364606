/**
 * The temp folders of the test suite (the one place it makes them), each under the system
 * temp folder and named with a prefix. The two removed by hooks are called at a test file's
 * top level or inside a `describe` (the hooks attach there).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/** A folder its caller removes when the thing using it ends (a browser profile, a database cluster). */
export function tempFolderOwnedByCaller(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** One folder for every test of the file (or of the `describe`), removed after the last. */
export function tempFolderRemovedAfterAll(prefix: string): string {
  const dir = tempFolderOwnedByCaller(prefix);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A function that makes a new folder each call; every folder made is removed after each test. */
export function tempFoldersRemovedAfterEach(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = tempFolderOwnedByCaller(prefix);
    made.push(dir);
    return dir;
  };
}
