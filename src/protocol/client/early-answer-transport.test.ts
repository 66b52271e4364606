/**
 * `client.post` (the probe's invalid requests) against servers that answer before the body
 * is sent whole and then close hard: the answer that came is kept; when nothing came, the
 * failure says so precisely.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createSystemOneClient } from './client.js';
import { SystemOneError } from './errors.js';

const BODY_BYTES = 9 * 1024 * 1024;
const ANSWER = '{"error":{"code":413,"message":"too large"}}';

type Behaviour = 'answer-then-reset' | 'reset-without-answer';

/**
 * A raw TCP server in a child process (the race needs two event loops: in one process the
 * client always reads first): it reads the request head, then answers 413 and closes with
 * the body unread, which resets the connection under the client, or only resets. It prints
 * its port, then one line per connection.
 */
const HARD_CLOSING_SERVER = `
const net = require('node:net');
const behaviour = process.argv[1];
const answer = ${JSON.stringify(ANSWER)};
const server = net.createServer((socket) => {
  process.stdout.write('connection\\n');
  let head = '';
  const onData = (chunk) => {
    head += chunk.toString('latin1');
    if (!head.includes('\\r\\n\\r\\n')) return;
    socket.off('data', onData);
    socket.pause();
    if (behaviour === 'reset-without-answer') return socket.resetAndDestroy();
    socket.end('HTTP/1.1 413 Payload Too Large\\r\\ncontent-type: application/json\\r\\ncontent-length: ' +
      Buffer.byteLength(answer) + '\\r\\nconnection: close\\r\\n\\r\\n' + answer, () => socket.destroy());
  };
  socket.on('data', onData);
  socket.on('error', () => {});
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill();
});

async function startHardClosingServer(behaviour: Behaviour): Promise<{ url: string; connections: () => number }> {
  const child = spawn(process.execPath, ['-e', HARD_CLOSING_SERVER, behaviour], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  const port = await new Promise<string>((resolve) =>
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    }),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => out.split('\n').filter((l) => l === 'connection').length,
  };
}

const oversized = () => `{"state":"${' '.repeat(BODY_BYTES)}","questions":{}}`;

describe('client.post against a server that closes under the body', () => {
  it('keeps the 413 that arrived before the server reset the connection', async () => {
    const server = await startHardClosingServer('answer-then-reset');
    const client = createSystemOneClient({ baseUrl: server.url, timeoutMs: 10_000 });
    try {
      // A pooled client loses the answer to the reset in about a third of the tries.
      for (let i = 0; i < 20; i++) {
        const r = await client.post(oversized());
        expect(r).toEqual({ status: 413, text: ANSWER });
      }
    } finally {
      await client.close();
    }
  });

  it('says precisely that nothing came back, after a second try, when the server resets without answering', async () => {
    const server = await startHardClosingServer('reset-without-answer');
    const client = createSystemOneClient({ baseUrl: server.url, timeoutMs: 10_000 });
    try {
      const error = await client.post(oversized()).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SystemOneError);
      const e = error as SystemOneError;
      expect(e.code).toBe('transport');
      expect(e.shortMessage).toMatch(
        /^the server closed the connection after \d+\.\d of the 9\.0 MiB body had been written \((connection reset|the write was refused)\), on both of 2 tries$/,
      );
      // The server reports each connection on its own stdout, which can reach this process
      // after the client has seen the reset: wait for the second line rather than read once.
      await expect.poll(() => server.connections(), { timeout: 5_000 }).toBe(2);
    } finally {
      await client.close();
    }
  });
});
