import { describe, expect, it } from 'vitest';
import { piecesOf } from './text-pieces.js';

describe('piecesOf', () => {
  it('gathers chunks into pieces of at least the size, keeping every character in order', () => {
    const chunks = Array.from({ length: 25 }, (_, i) => String(i).padStart(4, '.'));
    const pieces = [...piecesOf(chunks, 10)];
    expect(pieces.join('')).toBe(chunks.join(''));
    expect(pieces.slice(0, -1).every((p) => p.length >= 10 && p.length < 14)).toBe(true);
    expect(pieces).toHaveLength(9);
  });

  it('yields nothing for no chunks', () => {
    expect([...piecesOf([])]).toEqual([]);
  });
});
