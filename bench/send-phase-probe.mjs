/**
 * Preloaded (`node --import ./bench/send-phase-probe.mjs …`) into both sides of
 * bench/bench-client.bench.ts: times the send phase, from the first HTTP request undici
 * creates to the end of the last answer, and the process's CPU over it, through undici's
 * diagnostics channels (no change to the code measured). At exit it writes one line to
 * stderr: `send-phase {"requests":…,"ms":…,"cpuUs":…}`.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

let first = null;
let last = null;
let requests = 0;
subscribe('undici:request:create', () => {
  first ??= { ms: performance.now(), cpu: process.cpuUsage() };
});
subscribe('undici:request:trailers', () => {
  requests++;
  last = { ms: performance.now(), cpu: process.cpuUsage() };
});
process.on('exit', () => {
  if (first === null || last === null) return;
  const cpuUs = last.cpu.user + last.cpu.system - first.cpu.user - first.cpu.system;
  writeSync(2, `send-phase ${JSON.stringify({ requests, ms: last.ms - first.ms, cpuUs })}\n`);
});
