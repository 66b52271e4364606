/**
 * The calibration map's file (docs/calibrate.md, "The map file"): versioned JSON, written by
 * `calibrate --out` and read back, checked field by field, by every command that applies a
 * map. Pure: reading and hashing the file happen in the datasets layer.
 */
import { given } from './given.js';
import { InvalidInputError, type InputProblem } from './errors.js';
import { isFiniteNumber, isRecord, preview, type JsonRecord } from './json-value.js';
import { jsonProblemMessage, parseStrictJson } from './strict-json.js';
import {
  CALIBRATION_FLOOR,
  CALIBRATION_GROUPINGS,
  CALIBRATION_MAP_FORMAT,
  CALIBRATION_MAP_VERSION,
  CALIBRATION_METHODS,
  type CalibrationGrouping,
  type CalibrationMap,
  type CalibrationMapGroup,
  type CalibrationMethod,
  type CalibrationParameters,
} from './calibration-map.js';

/** The map as JSON text (two-space indented, a newline at the end). */
export function renderCalibrationMapJson(map: CalibrationMap): string {
  const doc = {
    format: CALIBRATION_MAP_FORMAT,
    version: CALIBRATION_MAP_VERSION,
    method: map.method,
    by: map.by,
    source: map.source,
    probability_floor: CALIBRATION_FLOOR,
    data_sha256: map.dataSha256,
    groups: map.groups.map((g) => ({
      key: g.key,
      decisions: g.decisions,
      ...(g.parameters === null
        ? { unchanged: g.unchanged ?? 'left unchanged' }
        : { parameters: parametersJson(g.parameters) }),
    })),
    held_out: map.heldOut,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function parametersJson(p: CalibrationParameters): JsonRecord {
  switch (p.method) {
    case 'temperature':
      return { temperature: p.temperature };
    case 'platt':
      return { a: p.a, b: p.b };
    case 'isotonic':
      return { steps: p.steps.map((s) => [s.x, s.y]) };
    case 'histogram':
      return { bins: p.bins };
    default:
      return assertNever(p);
  }
}

/** Parses a map file's text; throws InvalidInputError naming every bad field of `file`. */
export function parseCalibrationMapText(text: string, file: string): CalibrationMap {
  const problems: InputProblem[] = [];
  const fail = (field: string | undefined, message: string): void => {
    problems.push({
      file,
      line: null,
      ...given({ field }),
      message: field === undefined ? message : `${field}: ${message}`,
    });
  };
  const parsed = parseStrictJson(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) {
    fail(undefined, jsonProblemMessage(parsed));
    throw new InvalidInputError(problems);
  }
  const raw = parsed.value;
  if (!isRecord(raw) || raw['format'] !== CALIBRATION_MAP_FORMAT) {
    fail(
      undefined,
      `not a calibration map (expected "format": "${CALIBRATION_MAP_FORMAT}"; write one with decidekit calibrate)`,
    );
    throw new InvalidInputError(problems);
  }
  if (raw['version'] !== CALIBRATION_MAP_VERSION)
    fail('version', `this decidekit reads version ${CALIBRATION_MAP_VERSION}, got ${preview(raw['version'])}`);
  const method = oneOf(raw, 'method', CALIBRATION_METHODS, fail);
  const by = oneOf(raw, 'by', CALIBRATION_GROUPINGS, fail);
  const source = oneOf(raw, 'source', ['offline', 'bench'] as const, fail);
  if (raw['probability_floor'] !== CALIBRATION_FLOOR)
    fail(
      'probability_floor',
      `expected ${CALIBRATION_FLOOR} (the scoring floor), got ${preview(raw['probability_floor'])}`,
    );
  const sha = raw['data_sha256'];
  if (typeof sha !== 'string' || !/^[0-9a-f]{64}$/.test(sha))
    fail('data_sha256', `expected 64 hex digits, got ${preview(sha)}`);
  const groups = Array.isArray(raw['groups']) ? raw['groups'] : null;
  if (groups === null || groups.length === 0)
    fail('groups', `expected a non-empty array, got ${preview(raw['groups'])}`);
  const parsedGroups: CalibrationMapGroup[] = [];
  const seen = new Set<string>();
  groups?.forEach((g, i) => {
    const group = method === null ? null : parseGroup(g, `groups[${i}]`, method, fail);
    if (group === null) return;
    if (seen.has(group.key)) fail(`groups[${i}].key`, `group ${JSON.stringify(group.key)} is listed twice`);
    seen.add(group.key);
    parsedGroups.push(group);
  });
  if (problems.length > 0 || method === null || by === null || source === null) throw new InvalidInputError(problems);
  return { method, by, source, groups: parsedGroups, dataSha256: sha as string, heldOut: raw['held_out'] ?? null };
}

type Fail = (field: string | undefined, message: string) => void;

function oneOf<T extends string>(raw: JsonRecord, key: string, values: readonly T[], fail: Fail): T | null {
  const v = raw[key];
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
  fail(key, `expected one of ${values.join(', ')}, got ${preview(v)}`);
  return null;
}

function parseGroup(g: unknown, at: string, method: CalibrationMethod, fail: Fail): CalibrationMapGroup | null {
  if (!isRecord(g)) {
    fail(at, `expected an object, got ${preview(g)}`);
    return null;
  }
  const key = g['key'];
  const decisions = g['decisions'];
  if (typeof key !== 'string') fail(`${at}.key`, `expected a string, got ${preview(key)}`);
  if (!Number.isSafeInteger(decisions) || (decisions as number) < 0)
    fail(`${at}.decisions`, `expected a count, got ${preview(decisions)}`);
  if (typeof key !== 'string' || !Number.isSafeInteger(decisions)) return null;
  const base = { key, decisions: decisions as number };
  if (g['parameters'] === undefined) {
    const unchanged = g['unchanged'];
    if (typeof unchanged !== 'string') {
      fail(`${at}.parameters`, 'missing (a group without parameters says why it is "unchanged")');
      return null;
    }
    return { ...base, parameters: null, unchanged };
  }
  const parameters = parseParameters(g['parameters'], `${at}.parameters`, method, fail);
  return parameters === null ? null : { ...base, parameters };
}

function parseParameters(p: unknown, at: string, method: CalibrationMethod, fail: Fail): CalibrationParameters | null {
  if (!isRecord(p)) {
    fail(at, `expected an object, got ${preview(p)}`);
    return null;
  }
  const number = (key: string, ok: (x: number) => boolean, what: string): number | null => {
    const v = p[key];
    if (isFiniteNumber(v) && ok(v)) return v;
    fail(`${at}.${key}`, `expected ${what}, got ${preview(v)}`);
    return null;
  };
  const probability = (x: unknown): boolean => isFiniteNumber(x) && x >= 0 && x <= 1;
  switch (method) {
    case 'temperature': {
      const temperature = number('temperature', (x) => x > 0, 'a positive number');
      return temperature === null ? null : { method, temperature };
    }
    case 'platt': {
      const a = number('a', () => true, 'a number');
      const b = number('b', () => true, 'a number');
      return a === null || b === null ? null : { method, a, b };
    }
    case 'isotonic': {
      const steps = p['steps'];
      const ok =
        Array.isArray(steps) &&
        steps.length > 0 &&
        steps.every(
          (s, i) =>
            Array.isArray(s) &&
            s.length === 2 &&
            probability(s[0]) &&
            probability(s[1]) &&
            (i === 0 || (s[0] as number) > (steps[i - 1] as number[])[0]!),
        );
      if (!ok) {
        fail(`${at}.steps`, 'expected [x, y] pairs of probabilities, x increasing');
        return null;
      }
      return { method, steps: (steps as [number, number][]).map(([x, y]) => ({ x, y })) };
    }
    case 'histogram': {
      const bins = p['bins'];
      if (!Array.isArray(bins) || bins.length < 1 || !bins.every((b) => b === null || probability(b))) {
        fail(`${at}.bins`, 'expected an array of probabilities (null for an empty bin)');
        return null;
      }
      return { method, bins: bins as (number | null)[] };
    }
    default:
      return assertNever(method);
  }
}

function assertNever(x: never): never {
  throw new TypeError(`unexpected value: ${JSON.stringify(x)}`);
}

/** The map's groups a set of decisions needs but the map lacks, as one sentence; null when none is missing. */
export function missingGroupsText(
  map: Pick<CalibrationMap, 'by'> & { readonly groups: readonly { readonly key: string }[] },
  needed: readonly string[],
  describe: (key: string) => string,
): string | null {
  const have = new Set(map.groups.map((g) => g.key));
  const missing = [...new Set(needed)].filter((k) => !have.has(k)).sort();
  if (missing.length === 0) return null;
  const shown = missing.slice(0, 5).map(describe).join(', ');
  const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
  return `it has no group for ${shown}${more} (its groups, by ${map.by}: ${map.groups
    .slice(0, 5)
    .map((g) => JSON.stringify(g.key))
    .join(', ')}${map.groups.length > 5 ? ', …' : ''})`;
}

/** The group of a decision: `all`, its question type, or its question. */
export function calibrationGroupOf(by: CalibrationGrouping, type: string, question: string): string {
  return by === 'all' ? 'all' : by === 'type' ? type : question;
}
