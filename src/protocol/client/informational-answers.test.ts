/**
 * A server that writes an interim `100 Continue` nobody asked for before its real answer
 * (RFC 9110 §15.2: a client must parse 1xx answers it did not expect, and may ignore them).
 * Against a real loopback server that writes the raw bytes.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSystemOneClient } from './client.js';
import { getHealth, getText } from './server-gets.js';
import type { QuestionSet } from '../../core/question.js';

const ANSWER = JSON.stringify({ answers: { q: { type: 'noul', noul: 0.7 } }, model: 'm' });

/** Answers every request with a raw `100 Continue`, then a 200 carrying `ANSWER`; counts the requests. */
function continueFirstServer(): { server: net.Server; requests: () => number } {
  let requests = 0;
  const server = net.createServer((socket) => {
    let pending = '';
    socket.on('data', (data) => {
      pending += data.toString('latin1');
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.slice(end + 4 + length);
        requests++;
        socket.write('HTTP/1.1 100 Continue\r\n\r\n');
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(ANSWER)}\r\n\r\n${ANSWER}`,
        );
      }
    });
    socket.on('error', () => {});
  });
  return { server, requests: () => requests };
}

const target = continueFirstServer();
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(target.server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => target.server.close(() => resolve())));

const QUESTIONS: QuestionSet = [['q', { type: 'noul', instructions: 'Is it?' }]] as unknown as QuestionSet;

describe('an unsolicited 100 Continue before the answer', () => {
  it('is skipped by the default client: every decide gets the real answer, one request sent twice', async () => {
    const before = target.requests();
    const client = createSystemOneClient({ baseUrl: url, retries: 0 });
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await client.decide('state', QUESTIONS);
        expect(answer.model).toBe('m');
        expect(answer.attempts).toBe(1);
      }
      const sent = await client.send(JSON.stringify({ state: 's', questions: {} }));
      expect(sent.body).toEqual(JSON.parse(ANSWER));
      expect((await client.post('{}')).status).toBe(200);
      // The first decide is sent again once through node:http; every later request once.
      expect(target.requests() - before).toBe(6);
    } finally {
      await client.close();
    }
  });

  it('is skipped on the GET routes', async () => {
    expect(await getText(`${url}/health`, {})).toEqual({ status: 200, text: ANSWER });
    expect((await getHealth(url)).status).toBe('ok');
  });
});
