/**
 * End to end: a server that writes an interim `100 Continue` nobody asked for before every
 * answer (some proxies do). A client must skip a 1xx it did not expect (RFC 9110, section
 * 15.2), so `bench` and `probe` read the real answers. The server is a raw loopback socket
 * server that writes those bytes, then the answer of the real reference server behind it.
 */
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-interim-');
const env = { XDG_DATA_HOME: join(tmp, 'xdg') };
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

/** Asks the reference server as the client asked, and gives its answer back as raw bytes. */
function forward(upstream: URL, head: string, body: Buffer): Promise<Buffer> {
  const [requestLine, ...headerLines] = head.split('\r\n');
  const [method, path] = requestLine!.split(' ');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: upstream.hostname, port: upstream.port, method, path, headers: { ...headers, connection: 'close' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const answer = Buffer.concat(chunks);
          const type = res.headers['content-type'] ?? 'application/json';
          resolve(
            Buffer.concat([
              Buffer.from(
                `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\ncontent-type: ${type}\r\ncontent-length: ${answer.length}\r\n\r\n`,
                'latin1',
              ),
              answer,
            ]),
          );
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw server that writes `HTTP/1.1 100 Continue` before each answer of a reference server. */
async function continueFirstServer(): Promise<string> {
  const upstream = await startReferenceServer({ host: '127.0.0.1', port: 0, metrics: true, priorTable: null });
  closers.push(() => upstream.close());
  const target = new URL(upstream.url);
  const server = net.createServer((socket) => {
    let pending = Buffer.alloc(0);
    let busy = Promise.resolve();
    socket.on('error', () => {});
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = pending.subarray(end + 4, end + 4 + length);
        pending = pending.subarray(end + 4 + length);
        busy = busy.then(async () => {
          const answer = await forward(target, head, body);
          if (socket.destroyed) return;
          socket.write('HTTP/1.1 100 Continue\r\n\r\n');
          socket.write(answer);
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

describe('a server that writes an unasked 100 Continue before every answer', () => {
  it('bench reads every answer', async () => {
    const url = await continueFirstServer();
    const r = await runCliInProcess(['bench', '--base-url', url, '--limit', '6', '--parallel', '2', '--no-store'], {
      env,
      cwd: ROOT,
    });
    expect(r.stderr).not.toContain('internal error');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('6 sent, 6 answered, 0 failed');
  });

  it('probe finds it conformant, its GET routes included', async () => {
    const url = await continueFirstServer();
    const r = await runCliInProcess(
      ['probe', '--base-url', url, '--cases', '2', '--only', 'conformance', '--no-store'],
      { env, cwd: ROOT },
    );
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('Verdict: conformant (20/20 checks pass)');
  });
});
