/**
 * What went wrong with a file, in words: Node's file system errors carry a code (`EISDIR`)
 * that a message should not show raw. Pure: it only reads the error's `code`.
 */

const WORDS: Readonly<Record<string, string>> = {
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOENT: 'no such file or folder',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'read-only file system',
  EEXIST: 'it already exists',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  EBUSY: 'the file is busy',
  EFBIG: 'the file is too large',
  EIO: 'an input/output error of the disk',
  // Not Node's: what datasets/input-file.ts throws for a path that is not a regular file.
  NOT_REGULAR_FIFO: 'a FIFO (named pipe), not a regular file',
  NOT_REGULAR_DEVICE: 'a device, not a regular file',
  NOT_REGULAR_SOCKET: 'a socket, not a regular file',
};

/**
 * `err`'s code in words ("it is a folder" for EISDIR); an unknown code as itself; an error
 * without a code as `fallback`, else its message.
 */
export function fileErrorWords(err: unknown, fallback?: string): string {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return WORDS[code] ?? code;
  return fallback ?? (err instanceof Error ? err.message : String(err));
}
