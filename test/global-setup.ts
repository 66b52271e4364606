/**
 * Builds `dist/` before any test runs, so the few tests that spawn the real CLI or start a
 * worker thread from compiled files can never run against a stale build. Incremental: a
 * build with nothing changed takes well under a second.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';

export default function setup(): void {
  const root = join(import.meta.dirname, '..');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
  chmodSync(join(root, 'dist', 'cli', 'main.js'), 0o755);
}
