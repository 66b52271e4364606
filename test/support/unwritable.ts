/**
 * Makes a folder take no new file, or a file refuse writes, for the length of a check. Tests
 * run as root, for whom only the immutable flag (`chattr +i`) does it; for anyone else the
 * mode does. Both are undone afterwards.
 */
import { chmodSync, closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

function refusesWrites(path: string, kind: 'folder' | 'file'): boolean {
  try {
    if (kind === 'folder') {
      writeFileSync(join(path, 'probe'), '');
      rmSync(join(path, 'probe'));
    } else closeSync(openSync(path, 'r+'));
    return false;
  } catch {
    return true;
  }
}

/**
 * Runs `check` while `path` refuses writes. Returns false without running it where neither
 * the mode nor the immutable flag makes it refuse (a file system without the flag, as root).
 */
export async function whileUnwritable(
  path: string,
  kind: 'folder' | 'file',
  check: () => Promise<void>,
): Promise<boolean> {
  chmodSync(path, kind === 'folder' ? 0o500 : 0o400);
  const immutable = spawnSync('chattr', ['+i', path]).status === 0;
  try {
    if (!refusesWrites(path, kind)) return false;
    await check();
    return true;
  } finally {
    if (immutable) spawnSync('chattr', ['-i', path]);
    chmodSync(path, kind === 'folder' ? 0o700 : 0o600);
  }
}
