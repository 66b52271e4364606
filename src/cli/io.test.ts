import { describe, expect, it } from 'vitest';
import { writeInPieces, type TextSink } from './io.js';

describe('writeInPieces', () => {
  it('writes the text in pieces and waits for a sink that asks to drain before the next one', async () => {
    const written: string[] = [];
    let release: (() => void) | null = null;
    const sink: TextSink = {
      isTTY: false,
      write: (text) => void written.push(text),
      // Full after every write until released.
      whenDrained: () => new Promise<void>((resolve) => (release = resolve)),
    };
    const chunks = Array.from({ length: 3 }, (_, i) => String(i).repeat(40_000));
    const done = writeInPieces(sink, chunks);
    await Promise.resolve();
    expect(written.length).toBe(1);
    while (release !== null) {
      const r: () => void = release;
      release = null;
      r();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    expect(written.join('')).toBe(chunks.join(''));
    expect(written.length).toBe(3);
  });

  it('writes on without waiting when the sink never asks to', async () => {
    const written: string[] = [];
    await writeInPieces({ isTTY: false, write: (t) => void written.push(t) }, ['a', 'b', 'c']);
    expect(written).toEqual(['abc']);
  });
});
