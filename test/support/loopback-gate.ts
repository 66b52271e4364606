/**
 * A loopback server in front of another: each request is either answered by the gate itself
 * (what `answer` returns) or passed on to the upstream server as it came. Tests use it for a
 * server that wants credentials, or one that fails some requests on purpose.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the gate says itself instead of passing a request on. */
export interface GateAnswer {
  readonly status: number;
  readonly message: string;
}

/**
 * Starts the gate on 127.0.0.1 (port 0) and returns its base URL. `answer` sees each request
 * and returns null to pass it on; `closers` gets the gate's close.
 */
export async function startLoopbackGate(
  upstreamUrl: string,
  answer: (req: http.IncomingMessage) => GateAnswer | null,
  closers: (() => Promise<void>)[],
): Promise<string> {
  const target = new URL(upstreamUrl);
  const gate = http.createServer((req, res) => {
    const own = answer(req);
    if (own !== null) {
      req.resume();
      res.writeHead(own.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: own.message } }));
      return;
    }
    const forward = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        gate.closeAllConnections();
        gate.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
}
