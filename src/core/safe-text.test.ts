import { describe, expect, it } from 'vitest';
import { escapeUnsafeJson, escapeUnsafeText, stripControlChars } from './safe-text.js';

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

describe('stripControlChars and invisible characters', () => {
  it('removes zero-width characters, so a secret split by one is whole again for the scrubber', () => {
    expect(stripControlChars('key sk-abc\u200bdef\u2060gh\ufeff')).toBe('key sk-abcdefgh');
  });
});

describe('escapeUnsafeText', () => {
  it('shows C0 and C1 controls, zero-width and bidirectional characters as escapes', () => {
    expect(escapeUnsafeText('a\u001b[2Jb\u009bc\u200bd\u202ee\u2066f\ufeffg\u00adh')).toBe(
      'a\\u001b[2Jb\\u009bc\\u200bd\\u202ee\\u2066f\\ufeffg\\u00adh',
    );
  });

  it('shows line breaks and tabs as JSON escapes on one line, and keeps them when asked', () => {
    expect(escapeUnsafeText('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
    expect(escapeUnsafeText('a\tb\nc\rd\u202e', { keepLineBreaks: true })).toBe('a\tb\nc\\rd\\u202e');
  });

  it('keeps other text as it is', () => {
    expect(escapeUnsafeText('é 日本 emoji 🙂 "quoted"')).toBe('é 日本 emoji 🙂 "quoted"');
  });

  it('shows DEL and the line and paragraph separators as escapes', () => {
    expect(escapeUnsafeText('a\u007fb\u2028c\u2029d\u0080e')).toBe('a\\u007fb\\u2028c\\u2029d\\u0080e');
  });
});

describe('escapeUnsafeJson', () => {
  it('escapes what JSON.stringify leaves raw, and parses to the same value', () => {
    const value = { k: 'a\u007fb\u009bc\u200bd\u202ee\u2028f', n: [1, 'é 🙂'] };
    const text = escapeUnsafeJson(JSON.stringify(value, null, 2));
    expect(text).not.toMatch(/[\u007f-\u009f\u200b\u202e\u2028]/);
    expect(text).toContain('a\\u007fb\\u009bc\\u200bd\\u202ee\\u2028f');
    expect(JSON.parse(text)).toEqual(value);
  });
});
