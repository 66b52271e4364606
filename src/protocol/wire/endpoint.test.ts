import { describe, expect, it } from 'vitest';
import {
  baseUrlOf,
  endpointFor,
  endpointIdentity,
  describeEndpoint,
  formatEndpoint,
  hideHost,
  healthUrlFor,
  metricsUrlFor,
  modelsUrlFor,
  redactedIdentity,
  redactUrl,
  withoutCredentials,
} from './endpoint.js';
import { InvalidBaseUrlError } from '../client/errors.js';

describe('endpointFor', () => {
  it.each([
    ['http://h:8080', 'http://h:8080/v1/systemone'],
    ['http://h:8080/', 'http://h:8080/v1/systemone'],
    ['http://h:8080/v1/', 'http://h:8080/v1/systemone'],
    ['http://h:8080/v1', 'http://h:8080/v1/systemone'],
    ['https://openrouter.ai/api/v1', 'https://openrouter.ai/api/v1/systemone'],
    ['https://gw.example/proxy', 'https://gw.example/proxy/v1/systemone'],
    ['http://h:8080/v1/systemone', 'http://h:8080/v1/systemone'],
  ])('maps %s to %s', (base, endpoint) => {
    expect(endpointFor(base)).toBe(endpoint);
  });

  it('keeps a query for the request but drops the fragment', () => {
    expect(endpointFor('http://h/v1?key=abc#frag')).toBe('http://h/v1/systemone?key=abc');
  });

  it('rejects a non-http scheme and garbage with a message that names the problem', () => {
    expect(() => endpointFor('ftp://h')).toThrow(InvalidBaseUrlError);
    expect(() => endpointFor('ftp://h')).toThrow(/only http and https/);
    expect(() => endpointFor('not a url')).toThrow(/has no scheme; add http:\/\//);
    expect(() => endpointFor('http://[::1')).toThrow(/is not a URL/);
  });

  it('derives the other routes from the server root', () => {
    expect(healthUrlFor('http://h:8080/v1/')).toBe('http://h:8080/health');
    expect(modelsUrlFor('https://openrouter.ai/api/v1')).toBe('https://openrouter.ai/api/v1/models');
    expect(metricsUrlFor('http://h:8080')).toBe('http://h:8080/metrics');
  });
});

describe('redactUrl', () => {
  it('drops credentials, query and fragment', () => {
    const r = redactUrl('https://user:s3cret@host.example:8443/api/v1/systemone?api_key=s3cret#x');
    expect(r).toBe('https://host.example:8443/api/v1/systemone');
    expect(r).not.toContain('s3cret');
  });

  it('never echoes an unparsable string', () => {
    expect(redactUrl('sk-live-123 not a url')).toBe('<invalid url>');
  });
});

describe('endpointIdentity', () => {
  it('is scheme, host, port and path, with default ports filled in', () => {
    expect(endpointIdentity('https://u:p@Host.Example/api/v1/systemone?k=1')).toEqual({
      scheme: 'https',
      host: 'host.example',
      port: 443,
      path: '/api/v1/systemone',
    });
    expect(endpointIdentity('http://127.0.0.1:8084/v1/systemone')).toEqual({
      scheme: 'http',
      host: '127.0.0.1',
      port: 8084,
      path: '/v1/systemone',
    });
    expect(endpointIdentity('http://h/v1/systemone').port).toBe(80);
  });
});

describe('describeEndpoint', () => {
  it('names the built-in server and writes any other endpoint as formatEndpoint does', () => {
    const builtIn = { scheme: 'embedded', host: 'reference-server', port: 0, path: '/v1/systemone' };
    expect(describeEndpoint(builtIn)).toBe('the built-in reference server');
    expect(formatEndpoint(builtIn)).toBe('embedded://reference-server/v1/systemone');
    const remote = { scheme: 'http', host: '::1', port: 8080, path: '/v1/systemone' };
    expect(describeEndpoint(remote)).toBe('http://[::1]:8080/v1/systemone');
    expect(describeEndpoint(remote, true)).toBe(formatEndpoint(remote, true));
  });
});

describe('formatEndpoint and baseUrlOf', () => {
  it('gives back the base URL of a stored endpoint', () => {
    expect(baseUrlOf({ scheme: 'https', host: 'example.test', port: 443, path: '/api/v1/systemone' })).toBe(
      'https://example.test:443/api',
    );
  });

  it('writes an identity as scheme://host:port/path, the host hidden on request', () => {
    const identity = endpointIdentity('https://user:pw@Gw.Example/proxy/v1/systemone?key=s');
    expect(formatEndpoint(identity)).toBe('https://gw.example:443/proxy/v1/systemone');
    expect(formatEndpoint(identity, true)).toBe('https://<redacted>:443/proxy/v1/systemone');
    expect(formatEndpoint(redactedIdentity(identity))).toBe('https://<redacted>:443/proxy/v1/systemone');
  });

  it('brackets an IPv6 host once', () => {
    expect(formatEndpoint(endpointIdentity('http://[::1]:9000'))).toBe('http://[::1]:9000/');
    expect(formatEndpoint({ scheme: 'http', host: '::1', port: 80, path: '/v1/systemone' })).toBe(
      'http://[::1]:80/v1/systemone',
    );
  });

  it('gives back a base URL whose endpoint is the stored one', () => {
    for (const base of ['http://127.0.0.1:8080', 'https://gw.example/proxy', 'http://[::1]:9000/v1']) {
      const identity = endpointIdentity(endpointFor(base));
      expect(baseUrlOf(identity)).not.toMatch(/\/v1\/systemone$/);
      expect(endpointIdentity(endpointFor(baseUrlOf(identity)))).toEqual(identity);
    }
  });
});

describe('hideHost', () => {
  const identity = (host: string) => ({ scheme: 'http', host, port: 8080, path: '/v1/systemone' });

  it('shows a named host as <redacted> wherever it stands as a whole name', () => {
    expect(hideHost('nothing is listening at 127.0.0.1:8080; http://127.0.0.1:8080/v1', identity('127.0.0.1'))).toBe(
      'nothing is listening at <redacted>:8080; http://<redacted>:8080/v1',
    );
    expect(hideHost('GW.example.com refused', identity('gw.example.com'))).toBe('<redacted> refused');
  });

  it('hides an IPv6 host with its brackets', () => {
    expect(hideHost('at http://[::1]:8080/v1', identity('[::1]'))).toBe('at http://<redacted>:8080/v1');
  });

  it('leaves a longer name that only contains the host alone', () => {
    expect(hideHost('h.example and xh and h-2 but h:80', identity('h'))).toBe(
      'h.example and xh and h-2 but <redacted>:80',
    );
  });
});

describe('withoutCredentials', () => {
  it('takes the user and password out of the URL and gives them as a Basic authorization, percent-decoded', () => {
    const plain = withoutCredentials('http://ad%40min:p%3Ass@127.0.0.1:8084/v1?x=1');
    expect(plain.url).toBe('http://127.0.0.1:8084/v1?x=1');
    expect(plain.basicAuthorization).toBe(`Basic ${Buffer.from('ad@min:p:ss').toString('base64')}`);
    expect(withoutCredentials('http://user@h/').basicAuthorization).toBe(
      `Basic ${Buffer.from('user:').toString('base64')}`,
    );
  });

  it('leaves a URL without credentials, or a string that is not a URL, as it is', () => {
    expect(withoutCredentials('http://h:1/v1')).toEqual({ url: 'http://h:1/v1', basicAuthorization: null });
    expect(withoutCredentials('not a url')).toEqual({ url: 'not a url', basicAuthorization: null });
  });
});
