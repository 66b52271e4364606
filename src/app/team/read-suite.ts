/**
 * Reading a suite file (JSON, or YAML when it ends in `.yaml` or `.yml`) into a checked
 * `Suite`: the file read, parsed strictly, and every problem named at once with its line and
 * field, before any request is sent. A dataset path is read against the suite file's folder
 * and must be a file there.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { InvalidInputError, type InputProblem } from '../../core/errors.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { jsonLinesOf, type JsonLineOf } from '../../core/json-lines.js';
import { findRepeatedKeyAt, parseStrictJson } from '../../core/strict-json.js';
import { parseSuite } from '../../core/team/parse-suite.js';
import type { Suite } from '../../core/team/suite.js';
import { isRecord } from '../../core/json-value.js';
import { irregularCodeOf, refuseIrregularFile } from '../../datasets/input-file.js';
import { InvalidBaseUrlError } from '../../protocol/client/errors.js';
import { checkCommandBaseUrl } from '../../protocol/wire/endpoint.js';
import { BUILT_IN_MODEL_NAMES } from '../../protocol/server/models/model-names.js';
import { parseYamlSuite } from './suite-yaml.js';

/** A suite file is a page of settings: anything larger is not one. */
const MAX_SUITE_BYTES = 1024 * 1024;

/** A suite read from its file, with where its parts are written. */
export interface ReadSuite {
  readonly suite: Suite;
  /** The file as named in messages (as given). */
  readonly file: string;
  /** The line of a field of the file. */
  readonly lineOf: JsonLineOf;
  /** The folder dataset paths are read against. */
  readonly folder: string;
}

/**
 * The suite in `path` (resolved against `cwd`; `shown` is how messages name it). `env` is
 * where the keys' variables are looked up (only whether each is set: a key is read when sent).
 */
export async function readSuiteFile(
  path: string,
  options: { readonly shown: string; readonly env: Readonly<Record<string, string | undefined>> },
): Promise<ReadSuite> {
  const file = options.shown;
  const whole = (message: string): never => {
    throw new InvalidInputError([{ file, line: null, message }]);
  };
  let text = '';
  try {
    await refuseIrregularFile(path);
    const size = (await stat(path)).size;
    if (size > MAX_SUITE_BYTES) whole(`${size} bytes is too large for a suite file (at most ${MAX_SUITE_BYTES})`);
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (err instanceof InvalidInputError) throw err;
    whole(`cannot read the suite file (${fileErrorWords(err)})`);
  }
  const { value, lineOf } = /\.ya?ml$/i.test(path) ? readYaml(text, file) : readJson(text, file);
  const folder = dirname(path);
  const checked = parseSuite(value, {
    file,
    lineOf,
    defaultName: basename(path).replace(/\.(json|ya?ml)$/i, ''),
    hasEnv: (name) => (options.env[name] ?? '') !== '',
    baseUrlProblem,
    builtInModels: BUILT_IN_MODEL_NAMES.filter((m) => m !== 'judge'),
  });
  // A dataset path that is not a file is named with the file's other problems.
  const missing = await missingDatasets(datasetsWritten(value), folder, file, lineOf);
  const problems = [...(checked.ok ? [] : checked.problems), ...missing];
  if (!checked.ok || problems.length > 0)
    throw new InvalidInputError(problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  return { suite: checked.suite, file, lineOf, folder };
}

/** A JSON suite file's value and lines; a text that is not JSON is refused. */
function readJson(text: string, file: string): { value: unknown; lineOf: JsonLineOf } {
  const parsed = parseStrictJson(text);
  if (!parsed.ok)
    throw new InvalidInputError([
      {
        file,
        line: jsonProblemLine(text, parsed),
        message:
          parsed.problem === 'syntax' ? `not a JSON document (${parsed.message})` : `not a suite: ${parsed.message}`,
      },
    ]);
  return { value: parsed.value, lineOf: jsonLinesOf(text) };
}

/**
 * The line a JSON problem is at: a key's second writing, the character the parser stopped at,
 * or, for a file that ends too early, its last line that holds anything.
 */
function jsonProblemLine(
  text: string,
  parsed: { readonly problem: string; readonly message: string; readonly at?: number },
): number | null {
  const lineAt = (offset: number): number => text.slice(0, offset).split('\n').length;
  if (parsed.problem === 'duplicate_key') {
    const repeated = findRepeatedKeyAt(text);
    return repeated === null ? null : lineAt(repeated.at);
  }
  if (parsed.problem !== 'syntax') return null;
  // A position past the last character that holds anything: the file ended too early.
  return parsed.at === undefined ? null : lineAt(Math.min(parsed.at, text.trimEnd().length));
}

/** A YAML suite file's value and lines; a text that is not one YAML document is refused at its line. */
function readYaml(text: string, file: string): { value: unknown; lineOf: JsonLineOf } {
  const parsed = parseYamlSuite(text);
  if (!parsed.ok)
    throw new InvalidInputError([{ file, line: parsed.line, message: `not a YAML document (${parsed.message})` }]);
  return parsed;
}

function baseUrlProblem(url: string): string | null {
  try {
    checkCommandBaseUrl(url);
    return null;
  } catch (err) {
    if (err instanceof InvalidBaseUrlError) return err.message;
    throw err;
  }
}

/** The path a suite's dataset names, read against the suite file's folder; null for `sample` and `typed-decisions`. */
export function datasetPathOf(dataset: string, folder: string): string | null {
  if (dataset === 'sample' || dataset === 'typed-decisions') return null;
  return isAbsolute(dataset) ? dataset : resolve(folder, dataset);
}

/** The datasets given by a path that is not a file: named before any request is sent. */
/** The `dataset` text of each entry of a parsed file's `datasets`, by index, whatever else is wrong with the file. */
function datasetsWritten(value: unknown): (string | null)[] {
  const list = isRecord(value) ? value['datasets'] : undefined;
  if (!Array.isArray(list)) return [];
  return list.map((d: unknown) => (isRecord(d) && typeof d['dataset'] === 'string' ? d['dataset'] : null));
}

async function missingDatasets(
  datasets: readonly (string | null)[],
  folder: string,
  file: string,
  lineOf: JsonLineOf,
): Promise<InputProblem[]> {
  const problems: InputProblem[] = [];
  for (const [i, dataset] of datasets.entries()) {
    const path = dataset === null || dataset.trim() === '' ? null : datasetPathOf(dataset, folder);
    if (path === null) continue;
    let why: string | null = null;
    try {
      const code = irregularCodeOf(await stat(path));
      if (code !== null) why = fileErrorWords({ code });
    } catch (err) {
      why = fileErrorWords(err);
    }
    if (why !== null)
      problems.push({
        file,
        line: lineOf(['datasets', i, 'dataset']),
        field: `datasets[${i}].dataset`,
        message: `datasets[${i}].dataset: cannot read ${path} (${why}); a path is read from the suite file's folder`,
      });
  }
  return problems;
}
