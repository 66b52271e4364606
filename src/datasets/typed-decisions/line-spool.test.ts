import { describe, expect, it } from 'vitest';
import { LineSpool } from './line-spool.js';

describe('LineSpool', () => {
  it('gives the lines back in order with their tags, however many wait and however long they are', () => {
    const spool = new LineSpool();
    const made: string[] = [];
    const line = (i: number) => `{"id":"c${i}","note":"${'é'.repeat(i % 7 === 0 ? 400_000 : i % 50)}"}`;
    let taken = 0;
    // Pushes run ahead of takes by a few hundred lines, past one spool buffer and the ring's first size.
    for (let i = 0; i < 2_000; i++) {
      const text = line(i);
      const bytes = Buffer.from(`xx${text}yy`);
      spool.push(bytes, 2, bytes.length - 2, i + 1, 2 * i);
      made.push(text);
      if (i % 3 === 0 && spool.length > 300) {
        expect(spool.shift()).toBe(made[taken]);
        expect([spool.tag, spool.secondTag]).toEqual([taken + 1, 2 * taken]);
        taken++;
      }
    }
    while (spool.length > 0) {
      expect(spool.shift()).toBe(made[taken]);
      expect(spool.tag).toBe(taken + 1);
      taken++;
    }
    expect(taken).toBe(2_000);
  });

  it('copies the bytes, so the caller may reuse its buffer', () => {
    const spool = new LineSpool();
    const bytes = Buffer.from('abc');
    spool.push(bytes, 0, 3, 1, 0);
    bytes.write('xyz');
    expect(spool.shift()).toBe('abc');
    expect(() => spool.shift()).toThrow(RangeError);
  });
});
