import { describe, expect, it } from 'vitest';
import { networkReasonWords } from './network-error-words.js';

describe('networkReasonWords', () => {
  it('says a known code in words wherever it stands in the reason', () => {
    expect(networkReasonWords('ECONNREFUSED')).toBe('connection refused: nothing is listening there');
    expect(networkReasonWords('connect ECONNREFUSED 127.0.0.1:9')).toBe(
      'connection refused: nothing is listening there',
    );
    expect(networkReasonWords('ECONNRESET: socket hang up')).toBe('the server reset the connection');
    expect(networkReasonWords('UND_ERR_SOCKET: other side closed')).toBe('the server closed the connection');
    expect(networkReasonWords('getaddrinfo ENOTFOUND nosuchhost.invalid')).toBe('host not found');
  });

  it('keeps the message of an unknown code that leads the reason, and any other reason as it is', () => {
    expect(networkReasonWords('EWHATEVER: the cable is out')).toBe('the cable is out');
    expect(networkReasonWords('no complete response within 100 ms')).toBe('no complete response within 100 ms');
  });
});
