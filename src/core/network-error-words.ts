/**
 * Why a connection failed, in words: Node's and undici's network errors carry a code
 * (`ECONNREFUSED`, `UND_ERR_SOCKET`) that a message should not show raw. Pure: it only
 * reads the reason text.
 */

const WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused: nothing is listening there',
  ECONNRESET: 'the server reset the connection',
  ECONNABORTED: 'the connection was aborted',
  EPIPE: 'the server closed the connection while the request was being sent',
  ETIMEDOUT: 'the connection timed out',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (the name lookup failed; try again)',
  ENETUNREACH: 'the network is unreachable',
  EHOSTUNREACH: 'the host is unreachable',
  EHOSTDOWN: 'the host is down',
  EADDRNOTAVAIL: 'the address is not available on this machine',
  EPROTO: 'a TLS or protocol error',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer headers in time',
  UND_ERR_BODY_TIMEOUT: 'the answer body stopped arriving',
  UND_ERR_CLOSED: 'the connection was closed',
};

const CODE = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/g;

/**
 * A transport failure's reason in words: a known code anywhere in it ("connect ECONNREFUSED
 * 127.0.0.1:9", "ECONNRESET: socket hang up") becomes its words; an unknown code leading the
 * reason ("EXYZ: message") leaves its message; any other reason is kept as it is.
 */
export function networkReasonWords(reason: string): string {
  for (const [code] of reason.matchAll(CODE)) {
    const said = WORDS[code];
    if (said !== undefined) return said;
  }
  const led = /^(?:E[A-Z]{3,}|UND_ERR_[A-Z_]+): (.+)$/.exec(reason);
  return led?.[1] ?? reason;
}
