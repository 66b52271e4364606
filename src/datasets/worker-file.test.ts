import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempFolderRemovedAfterAll } from './test-support/temp-folders.js';
import { compiledWorkerFile } from './worker-file.js';

const tmp = tempFolderRemovedAfterAll('decidekit-worker-file-');
const url = (...parts: string[]) => pathToFileURL(join(tmp, ...parts)).href;

describe('a worker thread’s compiled file', () => {
  mkdirSync(join(tmp, 'dist', 'store', 'writer'), { recursive: true });
  writeFileSync(join(tmp, 'dist', 'store', 'writer', 'w-worker.js'), '');

  it('is beside a built module', () => {
    expect(compiledWorkerFile(url('dist', 'store', 'writer', 'w.js'), 'w-worker')).toBe(
      join(tmp, 'dist', 'store', 'writer', 'w-worker.js'),
    );
  });

  it('is at the same place under dist/ for a module run from src/', () => {
    expect(compiledWorkerFile(url('src', 'store', 'writer', 'w.ts'), 'w-worker')).toBe(
      join(tmp, 'dist', 'store', 'writer', 'w-worker.js'),
    );
  });

  it('is null when that file is not there, or a source module is not under src/', () => {
    expect(compiledWorkerFile(url('src', 'app', 'runs', 'p.ts'), 'w-worker')).toBeNull();
    expect(compiledWorkerFile(url('dist', 'store', 'writer', 'w.js'), 'other-worker')).toBeNull();
    expect(compiledWorkerFile(url('elsewhere', 'w.ts'), 'w-worker')).toBeNull();
  });
});
