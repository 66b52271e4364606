import { statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OptionError } from '../core/errors.js';
import { kernelLocationOf, makeFolder } from './folders.js';
import { tempFolderRemovedAfterAll } from './test-support/temp-folders.js';

describe('folders for outputs and caches', () => {
  const dir = tempFolderRemovedAfterAll('decidekit-folders-');

  it('refuses a folder under /proc, /sys or /dev at once (Node would never return from mkdir)', async () => {
    for (const path of ['/proc/x/y', '/proc', '/sys/decidekit', '/dev/reports'])
      await expect(makeFolder(path, 'outDir')).rejects.toThrow(OptionError);
    await expect(makeFolder('/proc/x', 'outDir')).rejects.toThrow(
      'outDir /proc/x: cannot be under /proc, a kernel file system; give a folder elsewhere, e.g. ./reports/',
    );
  });

  it('follows symbolic links into a kernel file system', async () => {
    symlinkSync('/proc/self', join(dir, 'self'));
    expect(kernelLocationOf(join(dir, 'self', 'out'))).toEqual({
      root: '/proc',
      leadsTo: expect.stringMatching(/^\/proc\//),
    });
    await expect(makeFolder(join(dir, 'self', 'out'), 'outDir')).rejects.toThrow(/it leads to \/proc\//);
  });

  it('makes ordinary folders and their parents; /dev/shm and names that only start alike are not kernel paths', async () => {
    await makeFolder(join(dir, 'a', 'b'), 'outDir');
    expect(statSync(join(dir, 'a', 'b')).isDirectory()).toBe(true);
    expect(kernelLocationOf('/dev/shm/decidekit')).toBeNull();
    expect(kernelLocationOf('/process/x')).toBeNull();
    expect(kernelLocationOf(join(dir, 'proc'))).toBeNull();
  });
});
