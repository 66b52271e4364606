/**
 * A line longer than the longest line decidekit reads (MAX_LINE_BYTES, 64 MiB) is a
 * problem of that line, named by file and line, before it is held whole: no "Cannot create
 * a string longer than" from deep inside Node. The real built CLI runs, so a large results
 * file takes the pre-parse worker's path too.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../../src/datasets/read-lines.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { CAREFUL_RESULTS, MODERATION_DATASET } from '../../support/offline-samples.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'main.js');
const tmp = tempFolderRemovedAfterAll('decidekit-long-line-');

/** `before` lines, then one line of MAX_LINE_BYTES + 1 bytes, then a short line. */
function writeLongLineFile(name: string, before: readonly string[]): string {
  const path = join(tmp, name);
  const fd = openSync(path, 'w');
  try {
    for (const line of before) writeSync(fd, `${line}\n`);
    const piece = Buffer.alloc(1 << 20, 'x');
    writeSync(fd, '{"case_id":"long","text":"');
    for (let written = 0; written <= MAX_LINE_BYTES; written += piece.length) writeSync(fd, piece);
    writeSync(fd, '"}\n{"case_id":"after"}\n');
  } finally {
    closeSync(fd);
  }
  return path;
}

function decidekit(args: readonly string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: tmp },
    cwd: tmp,
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const resultLines = Array.from(
  { length: 3 },
  (_, i) => `{"case_id":"yn-${i + 1}","model":"m","decision":{"probability":0.5}}`,
);

describe('a line longer than the longest line read', () => {
  it('is refused in a dataset, naming the file and the line', () => {
    const dataset = writeLongLineFile('dataset.jsonl', []);
    const r = decidekit(['score', '--dataset', dataset, '--results', CAREFUL_RESULTS]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${dataset}:1: the line is longer than 64 MiB, the longest line decidekit reads`);
    expect(r.stderr).not.toMatch(/internal error|Cannot create a string/);
  });

  it('is refused in a large results file (the pre-parse worker reads it), naming its line', () => {
    const results = writeLongLineFile('results.jsonl', resultLines);
    const r = decidekit(['score', '--dataset', MODERATION_DATASET, '--results', results]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${results}:4: the line is longer than 64 MiB`);
    expect(r.stderr).not.toMatch(/internal error|Cannot create a string/);
  });

  it('is refused in a gzipped results file and a Typed Decisions dataset', () => {
    const plain = writeLongLineFile('cases.jsonl', []);
    const gz = join(tmp, 'results.jsonl.gz');
    const fd = openSync(gz, 'w');
    writeSync(fd, gzipSync(Buffer.from(`${resultLines.join('\n')}\n{"x":"${'y'.repeat(MAX_LINE_BYTES)}"}\n`)));
    closeSync(fd);
    const scored = decidekit(['score', '--dataset', MODERATION_DATASET, '--results', gz]);
    expect(scored.code).toBe(1);
    expect(scored.stderr).toContain(`${gz}:4: the line is longer than 64 MiB`);
    const bench = decidekit(['bench', '--dataset', plain, '--no-store']);
    expect(bench.code).toBe(1);
    expect(bench.stderr).toContain(`${plain}:1: the line is longer than 64 MiB`);
    expect(bench.stderr).not.toMatch(/internal error|Cannot create a string/);
  });
});
