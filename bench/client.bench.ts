/**
 * System One client throughput and overhead on loopback.
 *
 * Server: `decidekit serve --model uniform` (zero latency) in its own process, so client
 * and server do not share an event loop. Compared in the same run, same request body:
 *  - baseline: undici Pool.request directly (read the body, JSON.parse it);
 *  - client: createSystemOneClient (default undici transport), which also renders the body
 *    from domain questions and strictly validates every answer;
 *  - client+node:http: the same client with the dependency-free node:http transport (to
 *    justify the default).
 * Besides throughput, the client process's CPU time per request is reported: on a shared
 * 2-core machine it is steadier than wall-clock rates.
 * Each configuration runs REPS times in rotating order; medians are reported.
 *
 * Run: npm run build && npx tsx bench/client.bench.ts
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { createSystemOneClient } from '../src/protocol/client/client.js';
import { renderDecideRequest } from '../src/protocol/wire/decide-request.js';
import { createNodeHttpTransport } from '../src/protocol/client/node-http-transport.js';
import { TYPED_DECISIONS_QUESTIONS } from '../src/protocol/test-support/fixtures.js';
import { parseWireQuestions } from '../src/protocol/wire/questions-json.js';
import { startChildServer } from './child-server.js';
import { median } from './measurements.js';

const REPS = Number(process.env['BENCH_REPS'] ?? 5);
const CONCURRENCY = [1, 8, 64];
const REQUESTS: Record<number, number> = { 1: 2000, 8: 5000, 64: 5000 };

const parsed = parseWireQuestions(TYPED_DECISIONS_QUESTIONS['customer_service'], 'questions');
if (!parsed.ok) throw new Error('fixture');
const questions = parsed.questions;
const state = {
  account: { tier: 'pro', tenure_months: 14, lifetime_value_usd: 2380, prior_tickets_90d: 2, seats: 5 },
  thread: [
    { role: 'customer', text: 'I was charged twice for order A-104 and nobody answered my last email.' },
    { role: 'agent', text: 'Sorry about that, let me check the invoice.' },
    { role: 'customer', text: 'Please refund the duplicate charge today or I will cancel.' },
  ],
};
const body = renderDecideRequest({ model: 'uniform', state, questions });

type Runner = { run(): Promise<void>; close(): Promise<void> };

function baseline(url: string, c: number): Runner {
  const pool = new Pool(url, { connections: c, pipelining: 1 });
  const headers = { 'content-type': 'application/json' };
  return {
    async run() {
      const res = await pool.request({ path: '/v1/systemone', method: 'POST', headers, body });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
      JSON.parse(text);
    },
    close: () => pool.close(),
  };
}

function client(url: string, c: number, nodeHttp: boolean): Runner {
  const k = createSystemOneClient({
    baseUrl: url,
    model: 'uniform',
    connections: c,
    ...(nodeHttp ? { transport: createNodeHttpTransport({ connections: c }) } : {}),
  });
  return { run: async () => void (await k.decide(state, questions)), close: () => k.close() };
}

async function measure(
  make: () => Runner,
  c: number,
  n: number,
): Promise<{ rps: number; msPerRequest: number; cpuUsPerRequest: number }> {
  const runner = make();
  const warm = 1000;
  let left = warm;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (left-- > 0) await runner.run();
    }),
  );
  left = n;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (left-- > 0) await runner.run();
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await runner.close();
  return { rps: (n / ms) * 1000, msPerRequest: ms / n, cpuUsPerRequest: (cpu.user + cpu.system) / n };
}

const server = await startChildServer(['--model', 'uniform', '--slots', '256']);
const kinds = ['baseline', 'client', 'client+node:http'] as const;
const rows: string[] = [];
let overheadLine = '';
for (const c of CONCURRENCY) {
  const results: Record<string, { rps: number[]; ms: number[]; cpu: number[] }> = Object.fromEntries(
    kinds.map((k) => [k, { rps: [], ms: [], cpu: [] }]),
  );
  for (let rep = 0; rep < REPS; rep++) {
    for (let i = 0; i < kinds.length; i++) {
      const kind = kinds[(i + rep) % kinds.length]!;
      const make =
        kind === 'baseline' ? () => baseline(server.url, c) : () => client(server.url, c, kind === 'client+node:http');
      const r = await measure(make, c, REQUESTS[c]!);
      results[kind]!.rps.push(r.rps);
      results[kind]!.ms.push(r.msPerRequest);
      results[kind]!.cpu.push(r.cpuUsPerRequest);
    }
  }
  const b = median(results['baseline']!.rps);
  const k = median(results['client']!.rps);
  const u = median(results['client+node:http']!.rps);
  const cpu = (kind: string) => median(results[kind]!.cpu).toFixed(0);
  rows.push(
    `| ${c} | ${b.toFixed(0)} | ${k.toFixed(0)} | **${(k / b).toFixed(3)}** | ${u.toFixed(0)} | ${(u / b).toFixed(3)} | ${cpu('baseline')} / ${cpu('client')} / ${cpu('client+node:http')} |`,
  );
  if (c === 1) {
    const overheads = results['client']!.ms.map((ms, i) => ms - results['baseline']!.ms[i]!);
    overheadLine = `Client overhead at concurrency 1: median ${(median(overheads) * 1000).toFixed(0)} µs/request (client ${median(results['client']!.ms).toFixed(3)} ms vs baseline ${median(results['baseline']!.ms).toFixed(3)} ms per request; per-rep differences ${overheads.map((o) => (o * 1000).toFixed(0)).join(', ')} µs).`;
  }
}
await server.stop();

const cpuModel =
  /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
process.stdout.write(
  [
    '### System One client throughput (loopback, reference server `uniform`, zero latency)',
    '',
    `Command: \`npm run build && npx tsx bench/client.bench.ts\` — machine: ${cpus().length} CPUs (nproc), ${cpuModel}, Node ${process.version}, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(
        ' ',
      )} at the end; ${REPS} repetitions in rotating order, medians; request: one customer_service case, 5 questions (${Buffer.byteLength(body)} bytes).`,
    '',
    '| concurrency | undici Pool baseline req/s | client req/s | client / baseline | client + node:http transport req/s | ratio | client-process CPU µs/request (baseline / client / node:http) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    overheadLine,
    '',
  ].join('\n'),
);
