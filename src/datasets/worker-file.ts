/**
 * Where a worker thread's compiled file is. Built, it sits beside the module that starts it.
 * Run from the sources (tests through vitest, scripts through tsx) that module is a `.ts` file
 * under `src/`, and the worker is taken from the same place under `dist/`, which the test set-up
 * builds first. Null when there is no such file: the caller then does the work another way.
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled worker `name` (`case-writer-worker`, say) for the module at `moduleUrl` (its `import.meta.url`). */
export function compiledWorkerFile(moduleUrl: string, name: string): string | null {
  const folder = dirname(fileURLToPath(moduleUrl));
  let built = folder;
  if (moduleUrl.endsWith('.ts')) {
    const src = `${sep}src${sep}`;
    const at = `${folder}${sep}`.lastIndexOf(src);
    if (at < 0) return null;
    built = `${folder.slice(0, at)}${sep}dist${sep}${folder.slice(at + src.length)}`;
  }
  const file = join(built, `${name}.js`);
  return existsSync(file) ? file : null;
}
