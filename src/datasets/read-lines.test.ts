import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecidekitError } from '../core/errors.js';
import { readLines, type ReadLinesOptions } from './read-lines.js';
import { tempFolderRemovedAfterAll } from './test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-read-lines-');

let fileNo = 0;
function write(content: string | Buffer, name = `f${fileNo++}.txt`): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

async function collect(
  path: string,
  options?: ReadLinesOptions,
): Promise<{ lines: string[]; numbers: number[]; count: number }> {
  const lines: string[] = [];
  const numbers: number[] = [];
  const count = await readLines(
    path,
    (line, n) => {
      lines.push(line);
      numbers.push(n);
    },
    options,
  );
  return { lines, numbers, count };
}

describe('readLines', () => {
  it('passes every line with 1-based numbers and returns the count', async () => {
    const r = await collect(write('a\nbb\nccc\n'));
    expect(r.lines).toEqual(['a', 'bb', 'ccc']);
    expect(r.numbers).toEqual([1, 2, 3]);
    expect(r.count).toBe(3);
  });

  it('passes a final line without a newline', async () => {
    expect((await collect(write('a\nlast'))).lines).toEqual(['a', 'last']);
  });

  it('drops the carriage return of CRLF line ends', async () => {
    expect((await collect(write('a\r\nb\r\nc'))).lines).toEqual(['a', 'b', 'c']);
  });

  it('counts empty lines without passing them', async () => {
    expect(await collect(write('\n\na\n\r\nb\n\n'))).toEqual({ lines: ['a', 'b'], numbers: [3, 5], count: 6 });
  });

  it('counts long runs of empty lines across chunks, plain and gzipped', async () => {
    const text = `${'\n'.repeat(100_000)}a\n${'\n'.repeat(50_000)} \nb`;
    const expected = { lines: ['a', ' ', 'b'], numbers: [100_001, 150_002, 150_003], count: 150_003 };
    expect(await collect(write(text), { chunkBytes: 4096 })).toEqual(expected);
    expect(await collect(write(gzipSync(text), 'blank.jsonl.gz'), { chunkBytes: 4096 })).toEqual(expected);
  });

  it('reads an empty file as zero lines', async () => {
    expect(await collect(write(''))).toEqual({ lines: [], numbers: [], count: 0 });
  });

  it('drops a leading byte order mark', async () => {
    expect((await collect(write(Buffer.from('\ufeff{"a":1}\nx\n', 'utf8')))).lines).toEqual(['{"a":1}', 'x']);
  });

  it('joins a line split across many small chunks', async () => {
    const long = 'x'.repeat(1000);
    const r = await collect(write(`ab\n${long}\ncd`), { chunkBytes: 7 });
    expect(r.lines).toEqual(['ab', long, 'cd']);
  });

  it('keeps a CRLF split between two chunks', async () => {
    // chunk of 3 bytes: "ab\r" | "\ncd"
    expect((await collect(write('ab\r\ncd'), { chunkBytes: 3 })).lines).toEqual(['ab', 'cd']);
  });

  it('never splits a multi-byte character at a chunk boundary', async () => {
    const text = 'é€😀 ünïcödé\n日本語のテキスト\n🙂';
    for (let chunk = 1; chunk <= 9; chunk++) {
      expect((await collect(write(text), { chunkBytes: chunk })).lines).toEqual([
        'é€😀 ünïcödé',
        '日本語のテキスト',
        '🙂',
      ]);
    }
  });

  it('matches String.split for any text and chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom('\n', '\r\n', '')), {
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 16 }),
        async (parts, chunkBytes) => {
          const text = parts.join('');
          const all = text === '' ? [] : text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
          if (text.endsWith('\n')) all.pop();
          if (all.length > 0 && all[0]!.startsWith('\ufeff')) all[0] = all[0]!.slice(1);
          const numbered = all.map((line, i) => ({ line, n: i + 1 })).filter((l) => l.line !== '');
          const r = await collect(write(text), { chunkBytes });
          expect(r.lines).toEqual(numbered.map((l) => l.line));
          expect(r.numbers).toEqual(numbered.map((l) => l.n));
          expect(r.count).toBe(all.length);
        },
      ),
      { seed: 42, numRuns: 150 },
    );
  });

  it('gunzips a path ending in .gz', async () => {
    const path = write(gzipSync(Buffer.from('one\ntwo\r\nthree')), 'lines.jsonl.gz');
    expect((await collect(path)).lines).toEqual(['one', 'two', 'three']);
  });

  it('gunzips when asked, whatever the name', async () => {
    const path = write(gzipSync(Buffer.from('α\nβ\n')), 'packed.bin');
    expect((await collect(path, { gunzip: true, chunkBytes: 1 })).lines).toEqual(['α', 'β']);
  });

  it('rejects a file that is not gzip with a message naming the path', async () => {
    const path = write('plain text\n', 'fake.jsonl.gz');
    const err = await readLines(path, () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecidekitError);
    expect((err as DecidekitError).code).toBe('file_unreadable');
    expect((err as Error).message).toContain(path);
    expect((err as Error).message).toContain('gzip');
  });

  it('rejects a missing file with a message naming the path', async () => {
    const path = join(dir, 'nope.jsonl');
    const err = await readLines(path, () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecidekitError);
    expect((err as Error).message).toBe(`cannot read file: ${path} (no such file or folder)`);
  });

  it('rejects a directory', async () => {
    const err = await readLines(dir, () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecidekitError);
    expect((err as Error).message).toContain(dir);
  });

  it('stops and rejects with the error thrown by the callback', async () => {
    const path = write('a\nb\nc\n');
    const seen: string[] = [];
    const boom = Object.assign(new Error('bad line'), { code: 'ERR_SOMETHING' });
    const err = await readLines(path, (line) => {
      seen.push(line);
      if (line === 'b') throw boom;
    }).catch((e: unknown) => e);
    expect(err).toBe(boom);
    expect(seen).toEqual(['a', 'b']);
  });
});
