/**
 * A suite file's parsed value checked into a `Suite`: every problem found at once, each named
 * by the file, its line and its field (`models[1].api_key_env`), never more than once. A key
 * in the file is refused: a suite names the environment variable that holds it. Pure: what
 * needs the world (is a variable set, is a base URL usable, which models the built-in server
 * has) is passed in.
 */
import type { InputProblem } from '../errors.js';
import { isRecord, preview, type JsonRecord } from '../json-value.js';
import { closest } from '../closest-word.js';
import type { JsonLineOf, JsonPath } from '../json-lines.js';
import type { StatMetric } from '../stats/bootstrap.js';
import type { Suite, SuiteDataset, SuiteGate, SuiteModel, SuiteOptions } from './suite.js';

/** What checking a suite needs from outside the core. */
export interface SuiteChecks {
  /** The file as named in messages. */
  readonly file: string;
  readonly lineOf: JsonLineOf;
  /** The suite's name when the file gives none (the file's name without its extension). */
  readonly defaultName: string;
  /** Whether an environment variable is set (and not empty). */
  readonly hasEnv: (name: string) => boolean;
  /** Why a base URL cannot be used, or null. */
  readonly baseUrlProblem: (url: string) => string | null;
  /** The models of the built-in reference server. */
  readonly builtInModels: readonly string[];
}

/** Upper bounds shared with the command line's options. */
export const SUITE_LIMITS = {
  parallel: 1024,
  retries: 10,
  timeoutSec: Math.floor((2 ** 31 - 1) / 1000),
  seed: 2 ** 32 - 1,
  pricePerMtokUsd: 1_000_000,
  models: 64,
  datasets: 64,
  nameCharacters: 50,
} as const;

/** Fields that would hold a secret: refused whatever their value, which is never echoed. */
const SECRET_FIELDS = ['apikey', 'key', 'token', 'accesstoken', 'bearer', 'authorization', 'password', 'secret'];

const TOP_FIELDS = ['name', 'models', 'datasets', 'options', 'gate'];
const MODEL_FIELDS = ['name', 'base_url', 'model', 'api_key_env', 'parallel'];
const DATASET_FIELDS = ['name', 'dataset', 'limit', 'sample', 'workflow'];
const OPTION_FIELDS = ['parallel', 'timeout', 'retries', 'seed', 'price_per_mtok', 'limit', 'sample'];
const GATE_FIELDS = ['baseline', 'metric', 'max_drop'];
const METRICS: Readonly<Record<string, StatMetric>> = {
  accuracy: 'accuracy',
  kl: 'kl',
  brier: 'brier',
  log_loss: 'logLoss',
  ece: 'ece',
};
/** How far a metric can move: a max_drop beyond it would pass whatever happens. */
const MAX_DROP_BOUND: Partial<Record<StatMetric, number>> = { accuracy: 1, ece: 1, brier: 2 };

/** `models[1].api_key_env`. */
export function fieldName(path: JsonPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The problems of one file, each at its line and field. */
class Problems {
  readonly list: InputProblem[] = [];
  constructor(private readonly checks: SuiteChecks) {}

  add(path: JsonPath, message: string): void {
    const field = fieldName(path);
    this.list.push({
      file: this.checks.file,
      line: path.length === 0 ? 1 : this.checks.lineOf(path),
      ...(field === '' ? {} : { field }),
      message: field === '' ? message : `${field}: ${message}`,
    });
  }

  /** An object's fields not in `known`: a secret field refused as such, another named with a guess. */
  unknownFields(value: JsonRecord, path: JsonPath, known: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      if (SECRET_FIELDS.includes(key.toLowerCase().replace(/[-_]/g, '')))
        this.add(
          [...path, key],
          'a suite file never holds a key: put it in an environment variable and name that variable in api_key_env',
        );
      else {
        const guess = closest(key, known);
        this.add(
          [...path, key],
          `unknown field (${guess === null ? `known: ${known.join(', ')}` : `did you mean ${guess}?`})`,
        );
      }
    }
  }

  /** A whole number in [min, max], or null when absent. */
  whole(value: JsonRecord, path: JsonPath, key: string, min: number, max?: number): number | null {
    const v = value[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && (max === undefined || v <= max)) return v;
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    this.add([...path, key], `must be a whole number ${range}, got ${preview(v)}`);
    return null;
  }

  /** A number in (0 or above, as `above` says) up to max, or null when absent. */
  decimal(
    value: JsonRecord,
    path: JsonPath,
    key: string,
    bounds: { min: number; above: boolean; max: number },
  ): number | null {
    const v = value[key];
    if (v === undefined || v === null) return null;
    const low = bounds.above ? typeof v === 'number' && v > bounds.min : typeof v === 'number' && v >= bounds.min;
    if (typeof v === 'number' && Number.isFinite(v) && low && v <= bounds.max) return v;
    const range = `${bounds.above ? 'above' : 'of at least'} ${bounds.min}${bounds.max === Infinity ? '' : ` and at most ${bounds.max}`}`;
    this.add([...path, key], `must be a number ${range}, got ${preview(v)}`);
    return null;
  }

  /** A non-empty string of at most `max` characters without control characters, or null when absent. */
  text(value: JsonRecord, path: JsonPath, key: string, max = 2000): string | null {
    const v = value[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'string' && v.trim() !== '' && v.length <= max && !/[\u0000-\u001f\u007f]/.test(v)) return v;
    this.add([...path, key], `must be a non-empty text of at most ${max} characters, got ${preview(v)}`);
    return null;
  }

  /** The entries of a list field that must hold at least one object. */
  entries(value: JsonRecord, key: string, what: string, max: number): JsonRecord[] | null {
    const v = value[key];
    if (v === undefined) {
      this.add([key], `missing: name at least one ${what}`);
      return null;
    }
    if (!Array.isArray(v) || v.length === 0 || v.length > max) {
      this.add([key], `must be a list of 1 to ${max} ${what}s, got ${preview(v)}`);
      return null;
    }
    const out: JsonRecord[] = [];
    v.forEach((entry: unknown, i) => {
      if (isRecord(entry)) out.push(entry);
      else this.add([key, i], `must be an object (a ${what}), got ${preview(entry)}`);
    });
    return out.length === v.length ? out : null;
  }
}

/** The suite a parsed file describes, or every problem found in it. */
export function parseSuite(
  value: unknown,
  checks: SuiteChecks,
): { readonly ok: true; readonly suite: Suite } | { readonly ok: false; readonly problems: InputProblem[] } {
  const p = new Problems(checks);
  if (!isRecord(value)) {
    p.add([], 'a suite file holds one JSON object (models, datasets, options, gate)');
    return { ok: false, problems: p.list };
  }
  p.unknownFields(value, [], TOP_FIELDS);
  const name = p.text(value, [], 'name', SUITE_LIMITS.nameCharacters) ?? checks.defaultName;
  const modelEntries = p.entries(value, 'models', 'model', SUITE_LIMITS.models);
  const models = modelEntries?.map((m, i) => modelOf(m, i, p, checks)) ?? null;
  const datasetEntries = p.entries(value, 'datasets', 'dataset', SUITE_LIMITS.datasets);
  const datasets = datasetEntries?.map((d, i) => datasetOf(d, i, p)) ?? null;
  if (models !== null) refuseRepeatedNames(models, 'models', 'model', p);
  if (datasets !== null) refuseRepeatedNames(datasets, 'datasets', 'dataset', p);
  const options = optionsOf(value['options'], p);
  const gate = gateOf(value['gate'], models, p);
  if (p.list.length > 0 || models === null || datasets === null)
    return { ok: false, problems: p.list.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)) };
  return { ok: true, suite: { name, models, datasets, options, gate } };
}

function refuseRepeatedNames(
  items: readonly { readonly name: string }[],
  key: string,
  what: string,
  p: Problems,
): void {
  items.forEach((item, i) => {
    const first = items.findIndex((other) => other.name === item.name);
    if (first !== i)
      p.add([key, i, 'name'], `${item.name} names ${key}[${first}] too: give each ${what} a name of its own (in name)`);
  });
}

function modelOf(m: JsonRecord, i: number, p: Problems, checks: SuiteChecks): SuiteModel {
  const path = ['models', i];
  p.unknownFields(m, path, MODEL_FIELDS);
  const baseUrl = p.text(m, path, 'base_url');
  const model = p.text(m, path, 'model', 200);
  const apiKeyEnv = apiKeyEnvOf(m, path, p, checks);
  if (baseUrl !== null) {
    // A user and password in the URL are a secret in the file, as a key would be.
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(baseUrl.trim()))
      p.add(
        [...path, 'base_url'],
        'carries a user and password: a suite file never holds credentials; give the server a key and name the environment variable that holds it in api_key_env',
      );
    else {
      const problem = checks.baseUrlProblem(baseUrl);
      if (problem !== null) p.add([...path, 'base_url'], problem);
    }
  } else {
    if (model !== null && !checks.builtInModels.includes(model))
      p.add(
        [...path, 'model'],
        `without base_url the built-in reference server answers, and it has no model ${preview(model)} (${checks.builtInModels.join(', ')})`,
      );
    if (apiKeyEnv !== null)
      p.add(
        [...path, 'api_key_env'],
        'the built-in reference server takes no key: give base_url, or leave the key out',
      );
  }
  const parallel = p.whole(m, path, 'parallel', 1, SUITE_LIMITS.parallel);
  const name =
    p.text(m, path, 'name', SUITE_LIMITS.nameCharacters) ??
    model ??
    (baseUrl === null ? 'heuristic' : `model ${i + 1}`);
  return { name, baseUrl, model, apiKeyEnv, parallel };
}

/** `api_key_env`: a variable's name (a value that is no name may be the key itself: never echoed), and set. */
function apiKeyEnvOf(m: JsonRecord, path: JsonPath, p: Problems, checks: SuiteChecks): string | null {
  const v = m['api_key_env'];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(v)) {
    p.add(
      [...path, 'api_key_env'],
      'must be the name of an environment variable (letters, digits and _), never the key itself',
    );
    return null;
  }
  if (!checks.hasEnv(v)) {
    p.add([...path, 'api_key_env'], `the environment variable ${v} is not set`);
    return null;
  }
  return v;
}

function datasetOf(d: JsonRecord, i: number, p: Problems): SuiteDataset {
  const path = ['datasets', i];
  p.unknownFields(d, path, DATASET_FIELDS);
  const dataset = p.text(d, path, 'dataset');
  if (d['dataset'] === undefined) p.add([...path, 'dataset'], 'missing: sample, typed-decisions or a file path');
  const limit = p.whole(d, path, 'limit', 1);
  const sample = p.whole(d, path, 'sample', 1);
  if (limit !== null && sample !== null)
    p.add([...path, 'sample'], 'limit takes the first cases and sample a seeded spread of them: give one of the two');
  const workflow = p.text(d, path, 'workflow', 200);
  const name =
    p.text(d, path, 'name', SUITE_LIMITS.nameCharacters) ?? defaultDatasetName(dataset ?? `dataset ${i + 1}`);
  return { name, dataset: dataset ?? '', limit, sample, workflow };
}

/** `sample`, `typed-decisions`, or a file's name without its folder and extensions. */
function defaultDatasetName(dataset: string): string {
  const base =
    dataset
      .split(/[\\/]/)
      .filter((s) => s !== '')
      .at(-1) ?? dataset;
  return base.replace(/(\.(jsonl|gz|parquet|json))+$/i, '') || base;
}

function optionsOf(v: unknown, p: Problems): SuiteOptions {
  const none = {
    parallel: null,
    timeoutSec: null,
    retries: null,
    seed: null,
    pricePerMtokUsd: null,
    limit: null,
    sample: null,
  };
  if (v === undefined || v === null) return none;
  if (!isRecord(v)) {
    p.add(['options'], `must be an object (${OPTION_FIELDS.join(', ')}), got ${preview(v)}`);
    return none;
  }
  const path = ['options'];
  p.unknownFields(v, path, OPTION_FIELDS);
  const limit = p.whole(v, path, 'limit', 1);
  const sample = p.whole(v, path, 'sample', 1);
  if (limit !== null && sample !== null)
    p.add([...path, 'sample'], 'limit takes the first cases and sample a seeded spread of them: give one of the two');
  return {
    parallel: p.whole(v, path, 'parallel', 1, SUITE_LIMITS.parallel),
    timeoutSec: p.decimal(v, path, 'timeout', { min: 0, above: true, max: SUITE_LIMITS.timeoutSec }),
    retries: p.whole(v, path, 'retries', 0, SUITE_LIMITS.retries),
    seed: p.whole(v, path, 'seed', 0, SUITE_LIMITS.seed),
    pricePerMtokUsd: p.decimal(v, path, 'price_per_mtok', { min: 0, above: false, max: SUITE_LIMITS.pricePerMtokUsd }),
    limit,
    sample,
  };
}

function gateOf(v: unknown, models: readonly SuiteModel[] | null, p: Problems): SuiteGate | null {
  if (v === undefined || v === null) return null;
  if (!isRecord(v)) {
    p.add(['gate'], `must be an object (${GATE_FIELDS.join(', ')}), got ${preview(v)}`);
    return null;
  }
  const path = ['gate'];
  p.unknownFields(v, path, GATE_FIELDS);
  const baseline = p.text(v, path, 'baseline', SUITE_LIMITS.nameCharacters);
  if (v['baseline'] === undefined)
    p.add([...path, 'baseline'], 'missing: the name of the model the others are held against');
  const names = models?.map((m) => m.name) ?? null;
  if (baseline !== null && names !== null && !names.includes(baseline))
    p.add([...path, 'baseline'], `${baseline} is none of the models (${names.join(', ')})`);
  const metricName = v['metric'] ?? 'accuracy';
  const metric = typeof metricName === 'string' ? METRICS[metricName] : undefined;
  if (metric === undefined)
    p.add([...path, 'metric'], `must be one of ${Object.keys(METRICS).join(', ')}, got ${preview(metricName)}`);
  const bound = metric === undefined ? undefined : MAX_DROP_BOUND[metric];
  const maxDrop = p.decimal(v, path, 'max_drop', { min: 0, above: false, max: bound ?? Infinity }) ?? 0;
  if (baseline === null || metric === undefined) return null;
  return { baseline, metric, maxDrop };
}
