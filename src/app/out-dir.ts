/** The folder a use case writes its reports into (bench, audit, probe), refused early when unusable. */
import { constants } from 'node:fs';
import { access, lstat, mkdir, stat } from 'node:fs/promises';
import { OptionError } from '../core/errors.js';
import { optionMention as option, words } from '../core/message-words.js';
import { fileErrorWords } from '../core/file-error-words.js';
import { refuseKernelFolder } from '../datasets/folders.js';

/**
 * Refuses, before any request is sent, an `outDir` that is not a writable folder and cannot be
 * made one, so a long run never ends in a write error that could have been seen at the start.
 */
export async function refuseUnusableOutDir(dir: string): Promise<void> {
  const fail = (why: string): never => {
    throw new OptionError('outDir', words`${option('outDir')} ${dir}: ${why}`);
  };
  refuseKernelFolder(dir, 'outDir');
  const found = await stat(dir).catch((err: NodeJS.ErrnoException) =>
    err.code === 'ENOENT' || err.code === 'ENOTDIR' ? null : fail(`cannot be read (${fileErrorWords(err)})`),
  );
  if (found !== null && !found.isDirectory()) fail('is a file, not a folder (give a folder for the reports)');
  if (found === null) {
    const link = await lstat(dir).catch(() => null);
    if (link?.isSymbolicLink()) fail('is a link to nothing (a dangling symbolic link)');
    await mkdir(dir, { recursive: true }).catch((err: NodeJS.ErrnoException) =>
      fail(`cannot be created (${fileErrorWords(err, 'mkdir failed')})`),
    );
  }
  await access(dir, constants.W_OK).catch(() => fail('is not writable'));
}
