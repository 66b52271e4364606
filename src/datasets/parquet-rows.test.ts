import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasParquetMagic, isParquetFile, readParquetRows, startsWithParquetMagic } from './parquet-rows.js';
import { fileKindOfHead } from './file-kind.js';
import { tempFoldersRemovedAfterEach } from './test-support/temp-folders.js';

const freshFolder = tempFoldersRemovedAfterEach('parquet-magic-');
function file(name: string, text: string): string {
  const dir = freshFolder();
  const path = join(dir, name);
  writeFileSync(path, text, 'latin1');
  return path;
}

describe('the Parquet magic', () => {
  it('is PAR1 at the start, nothing shorter or else', () => {
    expect(hasParquetMagic(Buffer.from('PAR1\x15\x04', 'latin1'))).toBe(true);
    expect(hasParquetMagic(Buffer.from('PAR', 'latin1'))).toBe(false);
    expect(hasParquetMagic(Buffer.from('par1', 'latin1'))).toBe(false);
    expect(hasParquetMagic(new Uint8Array(0))).toBe(false);
  });

  it('is the one file sniffing and the readers use', async () => {
    expect(fileKindOfHead(Buffer.from('PAR1xxxx', 'latin1'))).toBe('parquet');
    expect(await startsWithParquetMagic(file('rows.bin', 'PAR1xx'))).toBe(true);
    expect(await startsWithParquetMagic(file('rows.jsonl', '{"a":1}\n'))).toBe(false);
    expect(await isParquetFile(file('rows', 'PAR1xx'))).toBe(true);
    expect(await isParquetFile(file('named.parquet', '{}'))).toBe(true);
  });

  it('throws on a missing file from the strict check, false from the lenient one', async () => {
    const missing = join(tmpdir(), 'no-such-dir-decidekit', 'x');
    await expect(startsWithParquetMagic(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await isParquetFile(missing)).toBe(false);
  });
});

describe('a damaged Parquet file', () => {
  const JS_WORDS = /undefined|null|Cannot read|is not a function|properties of|Invalid array length|Offset is outside/;
  const footer = (length: number, body = '') =>
    `PAR1${body}${String.fromCharCode(length & 255, (length >> 8) & 255, (length >> 16) & 255, length >>> 24)}PAR1`;

  it('is named as damaged in words, never in JavaScript words', async () => {
    for (const [name, bytes] of [
      ['footer of length 0', footer(0)],
      ['footer of random bytes', footer(6, '\x01\x02\xff\x7f\x10\x00')],
      ['footer longer than the file', footer(1_000_000)],
      ['magic only', 'PAR1'],
    ] as const) {
      const path = file('damaged.parquet', bytes);
      const err = await readParquetRows(path, () => {}).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err, name).not.toBeNull();
      expect(err!.message, name).toMatch(/^cannot read file: .*damaged\.parquet \(not a readable parquet file: /);
      expect(err!.message, name).not.toMatch(JS_WORDS);
    }
  });
});
