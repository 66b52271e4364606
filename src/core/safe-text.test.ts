import { describe, expect, it } from 'vitest';
import { stripControlChars } from './safe-text.js';

describe('stripControlChars', () => {
  it('removes terminal escape sequences introducers (OSC title, clear screen, OSC 52, C1 CSI)', () => {
    const hostile = '\u001b]0;pwned\u0007\u001b[2Jall good\u001b]52;c;ZXZpbA==\u0007 \u009b31mred';
    const safe = stripControlChars(hostile);
    expect(safe).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(safe).toBe(']0;pwned[2Jall good]52;c;ZXZpbA== 31mred');
  });

  it('turns tabs and line breaks into spaces and keeps other text', () => {
    expect(stripControlChars('a\tb\r\nc é 日本')).toBe('a b  c é 日本');
  });

  it('removes bidirectional overrides', () => {
    expect(stripControlChars('abc\u202edef\u2066x')).toBe('abcdefx');
  });
});
