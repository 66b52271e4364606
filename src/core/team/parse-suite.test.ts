import { describe, expect, it } from 'vitest';
import { jsonLinesOf } from '../json-lines.js';
import { parseSuite, type SuiteChecks } from './parse-suite.js';
import { suiteJobsOf } from './suite.js';

function parse(value: unknown, env: readonly string[] = ['KEY_VAR']) {
  const text = JSON.stringify(value, null, 2);
  const checks: SuiteChecks = {
    file: 's.json',
    lineOf: jsonLinesOf(text),
    defaultName: 's',
    hasEnv: (name) => env.includes(name),
    baseUrlProblem: (url) => (url.includes('?') ? 'carries a query' : null),
    builtInModels: ['heuristic', 'prior'],
  };
  return parseSuite(JSON.parse(text), checks);
}

const remote = { name: 'r', base_url: 'http://127.0.0.1:1', model: 'm', api_key_env: 'KEY_VAR' };

describe('parseSuite', () => {
  it('fills the defaults: names from the model and dataset, no gate, the file name', () => {
    const r = parse({ models: [{ model: 'heuristic' }, remote], datasets: [{ dataset: 'sub/cases.jsonl.gz' }] });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.suite.name).toBe('s');
    expect(r.suite.models.map((m) => m.name)).toEqual(['heuristic', 'r']);
    expect(r.suite.datasets[0]!.name).toBe('cases');
    expect(r.suite.gate).toBeNull();
    expect(suiteJobsOf(r.suite).map((j) => j.label)).toEqual([
      expect.stringMatching(/^suite s: heuristic × cases \[[0-9a-f]{8}\]$/),
      expect.stringMatching(/^suite s: r × cases \[[0-9a-f]{8}\]$/),
    ]);
  });

  it('labels a job by its work: a new key or parallel keeps the label, another model does not', () => {
    const label = (model: object, options: object = {}) => {
      const r = parse({ models: [model], datasets: [{ dataset: 'sample' }], options }, ['KEY_VAR', 'OTHER']);
      if (!r.ok) throw new Error(JSON.stringify(r.problems));
      return suiteJobsOf(r.suite)[0]!.label;
    };
    const first = label(remote);
    expect(label({ ...remote, api_key_env: 'OTHER', parallel: 8 }, { parallel: 2, retries: 0 })).toBe(first);
    expect(label({ ...remote, model: 'm2' })).not.toBe(first);
    expect(label(remote, { seed: 3 })).not.toBe(first);
  });

  it('never echoes what may be a key: a secret field, or an api_key_env that is no variable name', () => {
    const secret = 'sk-live-123456';
    const r = parse({
      models: [
        { ...remote, Api_Key: secret },
        { ...remote, name: 'r2', api_key_env: secret },
      ],
      datasets: [{ dataset: 'sample' }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(JSON.stringify(r.problems)).not.toContain(secret);
    expect(r.problems.map((p) => p.field)).toEqual(['models[0].Api_Key', 'models[1].api_key_env']);
  });

  it('refuses credentials in a base URL, a key for the built-in server and an unknown built-in model', () => {
    const r = parse({
      models: [
        { name: 'a', base_url: 'http://u:p@127.0.0.1:1' },
        { name: 'b', model: 'laya', api_key_env: 'KEY_VAR' },
      ],
      datasets: [{ dataset: 'sample', limit: 1, sample: 2 }],
      gate: { baseline: 'a', metric: 'f1', max_drop: 3 },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(
        /^models\[0\]\.base_url: carries a user and password: a suite file never holds credentials/,
      ),
      expect.stringMatching(
        /^models\[1\]\.model: without base_url the built-in reference server answers, and it has no model "laya"/,
      ),
      'models[1].api_key_env: the built-in reference server takes no key: give base_url, or leave the key out',
      expect.stringMatching(/^datasets\[0\]\.sample: limit takes the first cases and sample a seeded spread/),
      'gate.metric: must be one of accuracy, kl, brier, log_loss, ece, got "f1"',
    ]);
  });

  it('bounds max_drop by what the metric can move', () => {
    const r = parse({ models: [remote], datasets: [{ dataset: 'sample' }], gate: { baseline: 'r', max_drop: 2 } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems[0]!.message).toBe('gate.max_drop: must be a number of at least 0 and at most 1, got 2');
  });
});
