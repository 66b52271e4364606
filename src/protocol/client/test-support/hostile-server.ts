/**
 * A System One server that attacks its client, one attack per mode, for the tests of the
 * client's secret scrubbing and terminal safety. Listens on 127.0.0.1, port 0. Every mode
 * echoes `secret` (the API key the client sends) in its own way.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const HOSTILE_MODES = [
  'probname',
  'answers',
  'boundary',
  'nonjson200',
  'escaped',
  'unicode-escaped',
  'esc404',
  'deep',
  'redirect',
] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

export interface HostileServer {
  readonly url: string;
  /** Requests answered so far. */
  readonly requests: () => number;
  close(): Promise<void>;
}

/** Terminal attacks: set the title, clear the screen, write the clipboard (OSC 52), a C1 CSI. */
export const TERMINAL_ATTACK = '\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;cHduZWQ=\u0007\u009b31mall good';

/** Depth of the `deep` mode's answers (about 6 MB, under the client's 8 MiB cap). */
const DEEP_LEVELS = 3_000_000;

function fullyEscaped(text: string): string {
  return [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

/** The body a mode answers with: [status, headers, body]. */
function attack(
  mode: HostileMode,
  secret: string,
  request: unknown,
): [number, Record<string, string>, string | Buffer] {
  const json = { 'content-type': 'application/json' };
  switch (mode) {
    case 'probname': {
      // The key as a probability key with a value outside [0, 1]: the reason quotes the key.
      const questions = (request as { questions?: Record<string, { type?: string }> } | null)?.questions ?? {};
      const answers: Record<string, unknown> = {};
      for (const [id, q] of Object.entries(questions))
        answers[id] =
          q.type === 'noul' ? { type: 'noul', noul: 0.5 } : { type: q.type, probabilities: { [secret]: 2 } };
      return [200, json, JSON.stringify({ answers, model: `echo ${secret}` })];
    }
    case 'answers':
      return [200, json, JSON.stringify({ answers: `key ${secret}` })];
    case 'boundary': {
      // The key crosses byte 800 (where bodies used to be cut before scrubbing); the blank
      // before it collapses to one space, so the cut piece would show.
      return [500, { 'content-type': 'text/plain' }, `oops${'\n'.repeat(776)}${secret} trailing`];
    }
    case 'nonjson200':
      // The same across byte 160, where a non-JSON 200 used to be cut.
      return [200, { 'content-type': 'text/plain' }, `not json${' '.repeat(132)}${secret}`];
    case 'escaped': {
      const escaped = JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/').replace(/&/g, '\\u0026');
      return [500, json, `{"error":{"message":"echo ${escaped}"},"detail":"${escaped}"}`];
    }
    case 'unicode-escaped':
      return [500, json, `{"error":{"message":"echo ${fullyEscaped(secret)}"}}`];
    case 'esc404':
      return [404, json, JSON.stringify({ error: { message: `${TERMINAL_ATTACK} ${secret}` } })];
    case 'deep':
      return [200, json, Buffer.from(`{"answers":${'['.repeat(DEEP_LEVELS)}${']'.repeat(DEEP_LEVELS)}}`)];
    case 'redirect':
      return [
        301,
        { location: `http://127.0.0.1:9/v1/systemone?key=${encodeURIComponent(secret)}`, 'content-type': 'text/plain' },
        `moved; your key was ${secret}`,
      ];
  }
}

export async function startHostileServer(mode: HostileMode, secret: string): Promise<HostileServer> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      let request: unknown = null;
      try {
        request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // answer anyway: the attack does not depend on the request
      }
      const [status, headers, body] = attack(mode, secret, request);
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
