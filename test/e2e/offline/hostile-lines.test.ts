/**
 * End to end (the CLI in process): offline files with hostile lines (nested 5,000 deep,
 * repeated keys, sums that overflow) give located problems and exit 1 in every offline
 * command, never "internal error" or a stack overflow; and the reference server answers a
 * deeply nested request with 400.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const tmp = tempFolderRemovedAfterAll('decidekit-e2e-hostile-input-');

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const { code, stdout, stderr } = await runCliInProcess(argv, { cwd: tmp });
  return { code, out: stdout, err: stderr };
}

function write(name: string, lines: string[]): string {
  const path = join(tmp, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const DATASET = write('dataset.jsonl', [
  '{"id":"yn-1","kind":"yes_no","correct":true}',
  '{"id":"yn-2","kind":"yes_no","correct":false}',
  '{"id":"yn-3","kind":"yes_no","correct":true}',
  '{"id":"yn-4","kind":"yes_no","correct":false}',
]);
const GOOD = [
  '{"case_id":"yn-1","model":"m","decision":{"probability":0.9}}',
  '{"case_id":"yn-2","model":"m","decision":{"probability":0.2}}',
  '{"case_id":"yn-3","model":"m","decision":{"probability":0.7}}',
  '{"case_id":"yn-4","model":"m","decision":{"probability":0.4}}',
];
const DEEP = `{"case_id":"yn-1","model":"m","decision":{"probability":0.9},"x":${'['.repeat(5000)}${']'.repeat(5000)}}`;

const commands = (results: string): string[][] => [
  ['validate', '--dataset', DATASET, '--results', results],
  ['score', '--dataset', DATASET, '--results', results],
  ['compare', '--dataset', DATASET, '--results', results],
  ['tune', '--dataset', DATASET, '--results', results],
];

describe('offline commands on hostile lines', () => {
  it.each([
    ['a line nested 5,000 deep', [DEEP, ...GOOD.slice(1)], /results-deep\.jsonl:1: too deeply nested/],
    [
      'a repeated key',
      [GOOD[0]!.replace('"model":"m"', '"model":"m","model":"n"'), ...GOOD.slice(1)],
      /results-dup\.jsonl:1: key "model" appears twice in one object/,
    ],
    [
      'costs whose sum overflows',
      GOOD.map((l, i) => (i < 2 ? l.replace('}}', '},"cost_usd":1e308}') : l)),
      /results-overflow\.jsonl:1 case yn-1: cost_usd must be at most/,
    ],
  ])('%s: a located problem and exit 1 from validate, score, compare and tune', async (what, lines, expected) => {
    const name = what.includes('deep') ? 'deep' : what.includes('repeated') ? 'dup' : 'overflow';
    const results = write(`results-${name}.jsonl`, lines);
    for (const argv of commands(results)) {
      const r = await cli(argv);
      expect({ argv: argv[0], code: r.code }).toEqual({ argv: argv[0], code: 1 });
      expect(r.out + r.err).toMatch(expected);
      expect(r.out + r.err).not.toMatch(/internal error|call stack|\bNaN\b/);
    }
  });

  it('bytes that are not UTF-8 are a located problem, not replacement characters in a model name', async () => {
    const latin1 = (line: string): Buffer => Buffer.from(line, 'latin1');
    const path = join(tmp, 'results-latin1.jsonl');
    // "mé" in Latin-1: one byte 0xE9, which is not UTF-8.
    const lines = GOOD.map((l) => latin1(l.replace('"model":"m"', '"model":"m\u00e9"')));
    writeFileSync(path, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
    for (const argv of commands(path)) {
      const r = await cli(argv);
      expect({ argv: argv[0], code: r.code }).toEqual({ argv: argv[0], code: 1 });
      expect(r.out + r.err).toContain('results-latin1.jsonl:1: not valid UTF-8');
      expect(r.out + r.err).not.toContain('\ufffd');
    }
    const dataset = join(tmp, 'dataset-latin1.jsonl');
    writeFileSync(
      dataset,
      latin1(
        '{"id":"yn-1","kind":"yes_no","prompt":"caf\u00e9?","correct":true}\n{"id":"yn-2","kind":"yes_no","prompt":"th\u00e9?","correct":true}\n',
      ),
    );
    const r = await cli(['score', '--dataset', dataset, '--results', write('results-ok.jsonl', GOOD.slice(0, 1))]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'dataset-latin1.jsonl:1: not valid UTF-8 (save the file as UTF-8)\n  (the same problem on 2 lines: 1, 2)',
    );
  });

  it('a dataset line nested 5,000 deep is a located problem', async () => {
    const dataset = write('dataset-deep.jsonl', [
      '{"id":"yn-1","kind":"yes_no","correct":true}',
      `{"id":"yn-2","kind":"yes_no","correct":false,"meta":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
    ]);
    const r = await cli(['validate', '--dataset', dataset]);
    expect(r.code).toBe(1);
    expect(r.err + r.out).toMatch(/dataset-deep\.jsonl:2: too deeply nested/);
  });

  it('tune refuses an error cost that would overflow (1e308) instead of printing n/a', async () => {
    const results = write('results-good.jsonl', GOOD);
    const r = await cli(['tune', '--dataset', DATASET, '--results', results, '--cost-fp', '1e308', '--cost-fn', '1']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--cost-fp\) must be a number from 0 to 1000000000000, got 1e\+308/);
    expect(r.out).not.toMatch(/n\/a|NaN/);
  });
});

describe('the reference server on hostile requests', () => {
  it('answers 400 naming the nesting for a request nested 5,000 deep, and 400 for a repeated key', async () => {
    const server = await startReferenceServer({ host: '127.0.0.1', port: 0, priorTable: null });
    try {
      const post = (body: string) =>
        fetch(`${server.url}/v1/systemone`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const deep = await post(`{"state":${'['.repeat(5000)}${']'.repeat(5000)},"questions":{}}`);
      expect(deep.status).toBe(400);
      expect(await deep.text()).toContain('too deeply nested');
      const dup = await post('{"state":"a","state":"b","questions":{}}');
      expect(dup.status).toBe(400);
      expect(await dup.text()).toContain('key \\"state\\" appears twice');
    } finally {
      await server.close();
    }
  });
});
