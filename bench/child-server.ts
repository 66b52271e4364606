/**
 * Starts `decidekit serve` (the built CLI) in a child process on a free loopback port, so a
 * benchmark's client and server do not share one event loop. Not a benchmark itself (run-all
 * only runs `*.bench.ts`).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');

export interface ChildServer {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startChildServer(args: readonly string[]): Promise<ChildServer> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
    });
    child.on('exit', (code) => reject(new Error(`decidekit serve exited with ${code} before printing its URL`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
