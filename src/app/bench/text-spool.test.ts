import { readdirSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempFoldersRemovedAfterEach } from '../../datasets/test-support/temp-folders.js';
import { TextSpool } from './text-spool.js';

/** The folder the spools make their temp files in: one of this test's own. */
const freshFolder = tempFoldersRemovedAfterEach('decidekit-spool-test-');
let folder: string;
beforeEach(() => {
  folder = freshFolder();
});

/** Writes about `mib` MiB of text (multi-byte characters among it) in small writes; returns what was written. */
function fill(spool: TextSpool, mib: number, tag: string): string {
  const texts: string[] = [];
  for (let i = 0; texts.length * 1024 < mib * (1 << 20); i++) {
    const text = `${tag} case ${i}: é ü ✓ `.padEnd(1024, '.');
    texts.push(text);
    spool.write(text);
  }
  return texts.join('');
}

describe('TextSpool', () => {
  it('keeps a few megabytes in memory: no temp file, the same text back', () => {
    const spool = new TextSpool(folder);
    const written = fill(spool, 3, 'a');
    expect(readdirSync(folder)).toEqual([]);
    expect([...spool.pieces()].join('')).toBe(written);
    // Read twice, the same.
    expect([...spool.pieces()].join('')).toBe(written);
    spool.dispose();
  });

  it('puts what goes past the memory all spools share into a temp file, in order, and gives the memory back', () => {
    const first = new TextSpool(folder);
    const second = new TextSpool(folder);
    const a = fill(first, 20, 'a');
    const b = fill(second, 20, 'b');
    expect(readdirSync(folder)).toHaveLength(1);
    expect([...first.pieces()].join('')).toBe(a);
    expect([...second.pieces()].join('')).toBe(b);
    first.dispose();
    second.dispose();
    expect(readdirSync(folder)).toEqual([]);
    const third = new TextSpool(folder);
    const c = fill(third, 20, 'c');
    expect(readdirSync(folder)).toEqual([]);
    expect([...third.pieces()].join('')).toBe(c);
    third.dispose();
  });
});
