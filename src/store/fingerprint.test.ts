import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../core/bench/run.js';
import { canonicalJson } from '../core/canonical-json.js';
import { FINGERPRINT_HEX_LENGTH, fingerprintOf } from './fingerprint.js';
import { CASE_IDS, runConfig } from '../core/bench/test-support/run-fixtures.js';

/** The same value with object keys inserted in reverse order, at every depth. */
function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reverseKeys) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) out[key] = reverseKeys((value as Record<string, unknown>)[key]);
    return out as T;
  }
  return value;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });
});

function calibration(sha256: string): NonNullable<RunConfig['calibration']> {
  return {
    path: 'map.json',
    sha256,
    method: 'temperature',
    by: 'all',
    groups: [{ key: 'all', parameters: { method: 'temperature', temperature: 2 } }],
  };
}

describe('fingerprintOf', () => {
  const base = runConfig();

  it('is a short sha256 of the canonical configuration', () => {
    const fp = fingerprintOf(base);
    expect(fp).toMatch(new RegExp(`^[0-9a-f]{${FINGERPRINT_HEX_LENGTH}}$`));
    const expected = createHash('sha256')
      .update(
        canonicalJson({
          caseIds: [...CASE_IDS].sort(),
          dataset: { id: base.dataset.id, revision: 'r1', split: 'test' },
          endpoint: { host: '127.0.0.1', path: '/v1/systemone', port: 8080, scheme: 'http' },
          model: 'tiny-decider',
          questionSet: base.questionSet,
        }),
      )
      .digest('hex');
    expect(expected.startsWith(fp)).toBe(true);
  });

  it('does not depend on key order or case order', () => {
    expect(fingerprintOf(reverseKeys(base))).toBe(fingerprintOf(base));
    expect(fingerprintOf(runConfig({ caseIds: [...CASE_IDS].reverse() }))).toBe(fingerprintOf(base));
  });

  it('ignores settings that do not change answers', () => {
    const same = runConfig({ parallel: 8, timeoutMs: 1, retries: 3, pricePerMtokUsd: null, toolVersion: '9.9.9' });
    expect(fingerprintOf(same)).toBe(fingerprintOf(base));
    expect(
      fingerprintOf(runConfig({ dataset: { ...base.dataset, license: 'x', attribution: 'y', url: 'https://a' } })),
    ).toBe(fingerprintOf(base));
  });

  const changes: [string, RunConfig][] = [
    ['dataset id', runConfig({ dataset: { ...base.dataset, id: 'LocalLLaMA/typed-decisions' } })],
    ['dataset revision', runConfig({ dataset: { ...base.dataset, revision: 'r2' } })],
    ['no revision', runConfig({ dataset: { ...base.dataset, revision: null } })],
    ['split', runConfig({ dataset: { ...base.dataset, split: 'train' } })],
    ['a case fewer (filtered run)', runConfig({ caseIds: CASE_IDS.slice(1), filters: { limit: 3, workflow: null } })],
    ['another case', runConfig({ caseIds: [...CASE_IDS.slice(1), 'customer_service_000099'] })],
    ['a changed question', runConfig({ questionSet: { ...base.questionSet, 'customer_service/route': 'bbbc' } })],
    ['an added question', runConfig({ questionSet: { ...base.questionSet, 'customer_service/extra': 'dddd' } })],
    ['model', runConfig({ model: 'tiny-decider-2' })],
    ['no model', runConfig({ model: null })],
    ['scheme', runConfig({ endpoint: { ...base.endpoint, scheme: 'https' } })],
    ['host', runConfig({ endpoint: { ...base.endpoint, host: 'localhost' } })],
    ['port', runConfig({ endpoint: { ...base.endpoint, port: 8081 } })],
    ['path', runConfig({ endpoint: { ...base.endpoint, path: '/other/v1/systemone' } })],
    ['embedded server', runConfig({ embeddedServer: { model: 'uniform' } })],
    ['a calibration map applied', runConfig({ calibration: calibration('a'.repeat(64)) })],
  ];
  it.each(changes)('changes with the %s', (_name, changed) => {
    expect(fingerprintOf(changed)).not.toBe(fingerprintOf(base));
  });

  it("tells calibration maps apart by their file's hash, wherever the file is", () => {
    const one = runConfig({ calibration: calibration('a'.repeat(64)) });
    const moved = runConfig({ calibration: { ...calibration('a'.repeat(64)), path: '/elsewhere/map.json' } });
    const other = runConfig({ calibration: calibration('b'.repeat(64)) });
    expect(fingerprintOf(moved)).toBe(fingerprintOf(one));
    expect(fingerprintOf(other)).not.toBe(fingerprintOf(one));
  });

  it('identifies the embedded server by its model, not its random loopback port', () => {
    const a = runConfig({ embeddedServer: { model: 'uniform' }, endpoint: { ...base.endpoint, port: 40001 } });
    const b = runConfig({ embeddedServer: { model: 'uniform' }, endpoint: { ...base.endpoint, port: 40002 } });
    const c = runConfig({ embeddedServer: { model: 'prior' }, endpoint: { ...base.endpoint, port: 40001 } });
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
    expect(fingerprintOf(a)).not.toBe(fingerprintOf(c));
  });
});
