import { jsonProblemMessage, parseStrictJson } from '../../../core/strict-json.js';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InvalidInputError } from '../../../core/errors.js';
import { parsePriorTable, type PriorTable } from './prior.js';
import { fileErrorWords } from '../../../core/file-error-words.js';

/** `data/typed-decisions-sample/prior.json` of the installed package (same depth from src/ and dist/). */
export function defaultPriorPath(): string {
  return fileURLToPath(new URL('../../../../data/typed-decisions-sample/prior.json', import.meta.url));
}

/** Reads and checks a prior file; a missing or broken file is an InvalidInputError naming it. */
export function readPriorFile(path: string): PriorTable {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InvalidInputError([
      { file: path, line: null, message: `cannot read the prior file (${fileErrorWords(err, 'unreadable')})` },
    ]);
  }
  const parsed = parseStrictJson(text);
  if (!parsed.ok) throw new InvalidInputError([{ file: path, line: null, message: jsonProblemMessage(parsed) }]);
  const value = parsed.value;
  return parsePriorTable(value, path);
}

/**
 * The prior table for the server: the given file (which must exist), else the package's
 * default file when present, else null with a note (the prior model then answers uniformly).
 */
export function loadPriorTable(priorFile: string | undefined): { table: PriorTable | null; note: string | null } {
  if (priorFile !== undefined) return { table: readPriorFile(priorFile), note: null };
  const path = defaultPriorPath();
  if (!existsSync(path)) return { table: null, note: `no prior file at ${path}: the prior model answers uniformly` };
  return { table: readPriorFile(path), note: null };
}
