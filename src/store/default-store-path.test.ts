import { describe, expect, it } from 'vitest';
import { defaultStorePath } from './default-store-path.js';

describe('defaultStorePath', () => {
  it('uses XDG_DATA_HOME when it is absolute', () => {
    expect(defaultStorePath({ XDG_DATA_HOME: '/data', HOME: '/home/u' })).toBe('/data/decidekit/runs.sqlite');
  });

  it('falls back to ~/.local/share when XDG_DATA_HOME is unset, empty or relative', () => {
    for (const XDG_DATA_HOME of [undefined, '', 'relative/dir']) {
      expect(defaultStorePath({ XDG_DATA_HOME, HOME: '/home/u' })).toBe('/home/u/.local/share/decidekit/runs.sqlite');
    }
  });

  it('takes an explicit home over HOME', () => {
    expect(defaultStorePath({ HOME: '/home/u' }, '/elsewhere')).toBe('/elsewhere/.local/share/decidekit/runs.sqlite');
  });
});
