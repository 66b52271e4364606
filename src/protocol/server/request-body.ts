/** Reading a request body under a cap, and throwing away the rest of one that was refused. */
import type http from 'node:http';

/** Reads a request body up to `max` bytes; null when it is larger (the rest is not read). */
export function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > max) {
        over = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks, size).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/**
 * Reads the rest of a refused body and throws it away, at most `maxBytes` within `maxMs`;
 * resolves true once the body ended, false when the connection closed or was dropped past
 * either bound.
 */
export function discardRest(req: http.IncomingMessage, maxBytes: number, maxMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let discarded = 0;
    const settle = (ended: boolean) => {
      clearTimeout(timer);
      resolve(ended);
    };
    const drop = () => {
      settle(false);
      req.socket.destroy();
    };
    const timer = setTimeout(drop, maxMs);
    timer.unref();
    req.on('data', (c: Buffer) => {
      discarded += c.length;
      if (discarded > maxBytes) drop();
    });
    req.once('end', () => settle(true));
    req.once('close', () => settle(false));
    req.resume();
  });
}
