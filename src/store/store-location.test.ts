import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OptionError } from '../core/errors.js';
import { refuseUnusableStoreLocation } from './store-location.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import { tempFolderRemovedAfterAll } from '../datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-store-location-');

describe('refuseUnusableStoreLocation', () => {
  it.each([
    ['/proc/x/runs.sqlite', '/proc'],
    ['/proc/self/status', '/proc'],
    ['/sys/kernel/runs.sqlite', '/sys'],
    ['/dev/null', '/dev'],
    ['/dev/decidekit/runs.sqlite', '/dev'],
  ])('refuses %s, under %s', (path, root) => {
    expect(() => refuseUnusableStoreLocation(path)).toThrow(OptionError);
    expect(() => refuseUnusableStoreLocation(path)).toThrow(`the run store cannot live under ${root}: ${path}`);
  });

  it('follows symbolic links to where the store would really be', () => {
    const link = join(dir, 'proc-link');
    symlinkSync('/proc/self', link);
    expect(() => refuseUnusableStoreLocation(join(link, 'sub', 'runs.sqlite'))).toThrow(
      /cannot live under \/proc: .*it leads to \/proc\//,
    );
  });

  it('refuses a folder, naming a file to use instead', () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    expect(() => refuseUnusableStoreLocation(folder)).toThrow(
      `the run store must be a regular file: ${folder} is a folder (pass storePath a file path, e.g. storePath ${join(folder, 'runs.sqlite')})`,
    );
  });

  it('accepts a new file in a new folder, and an existing store', () => {
    const path = join(dir, 'new', 'deeper', 'runs.sqlite');
    expect(() => refuseUnusableStoreLocation(path)).not.toThrow();
    openSqliteStore(path).close();
    expect(() => refuseUnusableStoreLocation(path)).not.toThrow();
  });

  it('is checked before opening the store creates anything', () => {
    expect(() => openSqliteStore('/proc/decidekit-test/runs.sqlite')).toThrow(OptionError);
  });
});
