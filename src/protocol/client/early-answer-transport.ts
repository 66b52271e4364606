import http from 'node:http';
import https from 'node:https';
import type { HttpTransport, TransportRequest, TransportResponse } from './http-transport.js';
import { startExchange } from './http-transport.js';

/** Body bytes written between two looks at what the server sent back. */
const CHUNK_BYTES = 64 * 1024;
/** How long the first chunk (with the request head) waits for an early answer before the rest goes out. */
const HEAD_ANSWER_WAIT_MS = 50;

/**
 * Thrown when the server closed the connection while the body was being sent and no
 * answer had arrived: the one failure worth a second try, since a server that answers
 * early and closes hard can reset the connection before its answer is read.
 */
export class ClosedWhileSendingError extends Error {
  override readonly name = 'ClosedWhileSendingError';
}

function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/**
 * A one-shot node:http(s) transport for requests a server may refuse before reading them
 * whole (a body over its size cap). Each request gets its own connection; the body goes
 * out in chunks, with a look at the connection between two, and stops once an answer has
 * arrived; an answer that arrived is kept even when the server then closed the connection
 * under the unsent rest (the write fails with EPIPE or ECONNRESET). The pooled transports
 * report such a write failure alone and drop the answer.
 */
export function createEarlyAnswerTransport(): HttpTransport {
  return {
    request(r: TransportRequest): Promise<TransportResponse> {
      return new Promise<TransportResponse>((resolve, reject) => {
        let req: http.ClientRequest | null = null;
        const exchange = startExchange(
          r,
          (response) => {
            // The unsent rest of the body is not wanted any more: free the connection.
            req?.destroy();
            resolve(response);
          },
          reject,
          () => req?.destroy(),
        );
        if (exchange === null) return;
        const body = r.body ?? new Uint8Array(0);
        const secure = r.url.protocol === 'https:';
        let answered = false;
        let written = 0;
        req = (secure ? https : http).request(
          {
            protocol: r.url.protocol,
            hostname: r.url.hostname.replace(/^\[|\]$/g, ''),
            port: r.url.port === '' ? undefined : Number(r.url.port),
            path: `${r.url.pathname}${r.url.search}`,
            method: r.method,
            headers: { ...r.headers, 'content-length': body.byteLength },
            agent: false,
          },
          (res) => {
            answered = true;
            if (exchange.failIfDeclaredOverCap(res.headers['content-length'])) return;
            res.on('data', (chunk: Buffer) => exchange.addChunk(chunk));
            res.on('end', () => exchange.finish(res.statusCode ?? 0, res.headers));
            res.on('error', () => {
              // 'close' below says whether the answer ended before the connection did.
            });
            res.on('close', () => {
              if (!res.complete)
                exchange.fail(
                  Object.assign(new Error('connection closed before the response ended'), { code: 'ECONNRESET' }),
                );
            });
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => {
          // Once an answer arrived, its own events settle the exchange.
          if (answered) return;
          if ((err.code === 'EPIPE' || err.code === 'ECONNRESET') && written > 0) {
            const how = err.code === 'ECONNRESET' ? 'connection reset' : 'the write was refused';
            exchange.fail(
              new ClosedWhileSendingError(
                `the server closed the connection after ${mib(written)} of the ${mib(body.byteLength)} MiB body ` +
                  `had been written (${how})`,
              ),
            );
            return;
          }
          exchange.fail(err);
        });
        const writeNext = () => {
          if (answered || exchange.settled || req === null || req.destroyed) return;
          if (written >= body.byteLength) {
            req.end();
            return;
          }
          const chunk = body.subarray(written, written + CHUNK_BYTES);
          written += chunk.byteLength;
          // A write to a connection the server has reset fails at once and node then drops
          // the connection, unread: so a wait for incoming bytes lies between two chunks (a
          // longer one after the head, when most servers judge the declared length).
          req.write(chunk, () => setTimeout(writeNext, written === chunk.byteLength ? HEAD_ANSWER_WAIT_MS : 0));
        };
        writeNext();
      });
    },
    async close() {
      // Nothing pooled: every request had its own connection.
    },
  };
}
