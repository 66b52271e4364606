/**
 * The client against a server that attacks it: every mode of the hostile server echoes the
 * API key in its own way (or nests, or redirects). No error text may carry the key, any long
 * piece of it, or a control character.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { QuestionSet } from '../../core/question.js';
import { createSystemOneClient, failureOf } from './client.js';
import { HttpError, MalformedResponseError, SystemOneError, UnsupportedEndpointError } from './errors.js';
import {
  HOSTILE_MODES,
  startHostileServer,
  type HostileMode,
  type HostileServer,
} from './test-support/hostile-server.js';

/** Longer than a preview's cut, with the characters JSON may escape. */
const HOSTILE_KEY = 'sk-live/9fQ2&Zr7Lm3Xw8Tb5Kc1Vd6Hy4Np0Ja';

/** Every piece of the key 12 characters long: a cut must not leave any of them behind. */
function keyPieces(key: string = HOSTILE_KEY): string[] {
  const out: string[] = [];
  for (let i = 0; i + 12 <= key.length; i++) out.push(key.slice(i, i + 12));
  return out;
}

const QUESTIONS: QuestionSet = [
  [
    'route',
    { type: 'choice', instructions: 'Which team?', options: ['billing', 'shipping'], descriptions: [null, null] },
  ],
  ['angry', { type: 'noul', instructions: 'Is the customer angry?' }],
];

const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function errorFor(mode: HostileMode): Promise<SystemOneError> {
  const server = await startHostileServer(mode, HOSTILE_KEY);
  servers.push(server);
  const client = createSystemOneClient({ baseUrl: server.url, apiKey: HOSTILE_KEY, retries: 0 });
  try {
    await client.decide('hello', QUESTIONS);
  } catch (err) {
    expect(err).toBeInstanceOf(SystemOneError);
    return err as SystemOneError;
  } finally {
    await client.close();
  }
  throw new Error(`mode ${mode}: the client accepted the answer`);
}

describe('client against a hostile server', () => {
  it.each(HOSTILE_MODES)('mode %s: no piece of the key and no control character in any error text', async (mode) => {
    const e = await errorFor(mode);
    const texts = [e.message, e.shortMessage, JSON.stringify(e.context), failureOf(e).message, String(e.stack)];
    for (const text of texts) {
      const unescaped = text.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      for (const piece of keyPieces()) expect(unescaped).not.toContain(piece);
      expect(text.replace(/\n\s+at .*/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });

  it('keeps what the server said around the scrubbed key', async () => {
    const e = await errorFor('boundary');
    expect(e).toBeInstanceOf(HttpError);
    expect(e.shortMessage).toBe('HTTP 500: oops [redacted] trailing');
    const escaped = await errorFor('escaped');
    expect(escaped.message).toContain('echo [redacted]');
    const unicode = await errorFor('unicode-escaped');
    expect(unicode.message).toContain('echo [redacted]');
  });

  it('classes a response nested 3,000,000 deep as malformed, naming the nesting', async () => {
    const e = await errorFor('deep');
    expect(e).toBeInstanceOf(MalformedResponseError);
    expect(failureOf(e)).toEqual({ kind: 'malformed', message: expect.stringMatching(/^the body: too deeply nested/) });
  });

  it('quotes a hostile 404 message without its escape sequences', async () => {
    const e = await errorFor('esc404');
    expect(e).toBeInstanceOf(UnsupportedEndpointError);
    expect(e.message).toContain(']0;pwned');
    expect(e.message).toContain('[redacted]');
  });

  it('rejects a probability keyed by the key, quoting it scrubbed', async () => {
    const e = await errorFor('probname');
    expect(e).toBeInstanceOf(MalformedResponseError);
    expect(e.shortMessage).toBe('question route: probability of "[redacted]" is 2, outside [0, 1]');
  });
});
