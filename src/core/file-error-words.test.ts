import { describe, expect, it } from 'vitest';
import { fileErrorWords } from './file-error-words.js';

const withCode = (code: string) => Object.assign(new Error(`${code}: something, open 'x'`), { code });

describe('fileErrorWords', () => {
  it('says what the common file system codes mean', () => {
    expect(fileErrorWords(withCode('EISDIR'))).toBe('it is a folder');
    expect(fileErrorWords(withCode('ENOENT'))).toBe('no such file or folder');
    expect(fileErrorWords(withCode('EACCES'))).toBe('permission denied');
    expect(fileErrorWords(withCode('EPERM'))).toBe('permission denied');
    expect(fileErrorWords(withCode('ENOSPC'))).toBe('no space left on the disk');
    expect(fileErrorWords(withCode('EROFS'))).toBe('read-only file system');
    expect(fileErrorWords(withCode('ENOTDIR'))).toBe('a part of the path is a file, not a folder');
  });

  it('falls back to an unknown code, then to the fallback, then to the message', () => {
    expect(fileErrorWords(withCode('EWEIRD'), 'write failed')).toBe('EWEIRD');
    expect(fileErrorWords(new Error('boom'), 'write failed')).toBe('write failed');
    expect(fileErrorWords(new Error('boom'))).toBe('boom');
    expect(fileErrorWords('text')).toBe('text');
  });
});
