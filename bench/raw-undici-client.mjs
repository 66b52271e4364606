/**
 * The floor of `bench --no-store`: a plain undici `Pool` client that streams a JSONL
 * dataset and posts each case's `{model, state, questions}` (the bytes decidekit sends),
 * `parallel` requests in flight, reads and parses each answer, and prints its times as one
 * JSON line. No checks, no scoring, no report. Run by bench/bench-client.bench.ts.
 *
 * Plain JavaScript, so it starts as fast as `node dist/cli/main.js` (no TypeScript loader):
 *
 *   node bench/raw-undici-client.mjs URL DATASET PARALLEL MODEL
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

const [url, dataset, parallelText, model] = process.argv.slice(2);
if (url === undefined || dataset === undefined || model === undefined)
  throw new Error('usage: URL DATASET PARALLEL MODEL');
const parallel = Number(parallelText);
const pool = new Pool(url, { connections: parallel, pipelining: 1 });
const headers = { 'content-type': 'application/json', accept: 'application/json' };
const modelField = `"model":${JSON.stringify(model)},`;

const lines = createInterface({ input: createReadStream(dataset), crlfDelay: Infinity })[Symbol.asyncIterator]();
/** The next request body, or null at the end of the file (lines are read one at a time, by whoever is free). */
async function nextBody() {
  for (;;) {
    const next = await lines.next();
    if (next.done === true) return null;
    if (next.value.trim() === '') continue;
    const row = JSON.parse(next.value);
    return `{${modelField}"state":${JSON.stringify(row.state)},"questions":${JSON.stringify(row.questions)}}`;
  }
}

const t0 = performance.now();
let requests = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let body = await nextBody(); body !== null; body = await nextBody()) {
      const res = await pool.request({ path: '/v1/systemone', method: 'POST', headers, body });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
      JSON.parse(text);
      requests++;
    }
  }),
);
const sendMs = performance.now() - t0;
await pool.close();
process.stdout.write(`${JSON.stringify({ requests, sendMs })}\n`);
