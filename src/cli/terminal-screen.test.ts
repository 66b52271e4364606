import { describe, expect, it } from 'vitest';
import { keyOf, renderFrameUpdate } from './terminal-screen.js';

describe('renderFrameUpdate', () => {
  it('draws every line of a first frame, in a synchronized-output bracket', () => {
    const out = renderFrameUpdate(null, ['ab', 'cd'], 4);
    expect(out.startsWith('\x1b[?2026h')).toBe(true);
    expect(out.endsWith('\x1b[?2026l')).toBe(true);
    expect(out).toContain('\x1b[1;1Hab');
    expect(out).toContain('\x1b[2;1Hcd');
  });

  it('writes only the lines that changed', () => {
    const out = renderFrameUpdate(['ab', 'cd', 'ef'], ['ab', 'xy', 'ef'], 4);
    expect(out).toContain('\x1b[2;1Hxy');
    expect(out).not.toContain('\x1b[1;1H');
    expect(out).not.toContain('\x1b[3;1H');
  });

  it('writes nothing for an unchanged frame', () => {
    expect(renderFrameUpdate(['ab'], ['ab'], 4)).toBe('');
  });

  it('clears the rest of a short line but never erases the last column of a full one', () => {
    expect(renderFrameUpdate(null, ['ab'], 4)).toContain('ab\x1b[0m\x1b[K');
    expect(renderFrameUpdate(null, ['abcd'], 4)).not.toContain('\x1b[K');
  });
});

describe('keyOf', () => {
  it('maps Ctrl+C, Ctrl+R and q; ignores the rest', () => {
    expect(keyOf(0x03)).toBe('interrupt');
    expect(keyOf(0x12)).toBe('reset');
    expect(keyOf('q'.charCodeAt(0))).toBe('quit');
    expect(keyOf('Q'.charCodeAt(0))).toBe('quit');
    expect(keyOf('x'.charCodeAt(0))).toBeNull();
    expect(keyOf(0x1b)).toBeNull();
  });
});
