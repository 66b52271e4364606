import { describe, expect, it } from 'vitest';
import { endpointFor, endpointIdentity, healthUrlFor, metricsUrlFor, modelsUrlFor, redactUrl } from './endpoint.js';
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
