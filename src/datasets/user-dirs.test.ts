import { describe, expect, it } from 'vitest';
import { userDir } from './user-dirs.js';

describe('userDir', () => {
  it('uses the XDG variable of each kind when it is absolute', () => {
    const env = { XDG_DATA_HOME: '/d', XDG_CACHE_HOME: '/c', HOME: '/home/u' };
    expect(userDir('data', env)).toBe('/d/decidekit');
    expect(userDir('cache', env)).toBe('/c/decidekit');
  });

  it('falls back under the home folder when the variable is unset, empty or relative', () => {
    for (const value of [undefined, '', 'relative/dir']) {
      const env = { XDG_DATA_HOME: value, XDG_CACHE_HOME: value, HOME: '/home/u' };
      expect(userDir('data', env)).toBe('/home/u/.local/share/decidekit');
      expect(userDir('cache', env)).toBe('/home/u/.cache/decidekit');
    }
  });

  it('takes an explicit home over HOME', () => {
    expect(userDir('cache', { HOME: '/home/u' }, '/elsewhere')).toBe('/elsewhere/.cache/decidekit');
  });
});
