/**
 * The checks file of `decidekit audit`: one JSON document `{"checks": [...]}`. Every
 * problem names the file, the check (index and id) and the field; one problem per cause.
 */
import { readFile } from 'node:fs/promises';
import { CHECK_SETS, EVIDENCE_SCOPES, UNCLEAR, parseCheckId, type AuditCheck } from '../../core/audit/check.js';
import { DecidekitError } from '../../core/errors.js';
import { isRecord } from '../../core/json-value.js';
import { ProblemList } from '../../core/problem-list.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { refuseIrregularFile } from '../input-file.js';

const OPTION_NAME = /^[a-z][a-z0-9_]*$/;
const NAME_LIST_FIELDS = ['scenarios', 'tags'] as const;

/** Reads and validates a checks file; throws InvalidInputError with every problem. */
export async function loadChecks(path: string, displayPath = path): Promise<AuditCheck[]> {
  let text: string;
  try {
    await refuseIrregularFile(path);
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new DecidekitError(
      'file_unreadable',
      `cannot read checks file: ${displayPath} (${fileErrorWords(err, 'read failed')})`,
      { context: { path: displayPath }, cause: err },
    );
  }
  return parseChecks(text, displayPath);
}

/** Validates the text of a checks file. */
export function parseChecks(text: string, file: string): AuditCheck[] {
  const problems = new ProblemList();
  const fail = (message: string) => {
    problems.add({ file, line: null, message });
    problems.throwIfAny();
  };
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    fail(`not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!isRecord(doc) || !Array.isArray(doc['checks']))
    fail('expected a JSON object with a "checks" array (see the README section "Answer audits")');
  const raw = (doc as { checks: unknown[] }).checks;
  if (raw.length === 0) fail('"checks" is empty: give at least one check');
  const checks: AuditCheck[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item, index) => {
    const problem = (field: string | null, message: string, id?: string) =>
      problems.add({
        file,
        line: null,
        message: `checks[${index}]${id === undefined ? '' : ` (${id})`}${field === null ? '' : ` ${field}`}: ${message}`,
      });
    const check = parseCheck(item, problem);
    if (check === null) return;
    const earlier = seen.get(check.id);
    if (earlier !== undefined) {
      problem('id', `${JSON.stringify(check.id)} is already the id of checks[${earlier}]`, check.id);
      return;
    }
    const sameBase = checks.find((c) => c.base === check.base);
    if (sameBase !== undefined) {
      problem('id', `${check.id} and ${sameBase.id} are two versions of one check: keep one`, check.id);
      return;
    }
    seen.set(check.id, index);
    checks.push(check);
  });
  problems.throwIfAny();
  return checks;
}

function parseCheck(
  item: unknown,
  problem: (field: string | null, message: string, id?: string) => void,
): AuditCheck | null {
  if (!isRecord(item)) {
    problem(null, 'is not an object');
    return null;
  }
  const id = item['id'];
  if (typeof id !== 'string' || id === '') {
    problem('id', 'is missing (a string with a version suffix, e.g. "payment-claim-v1")');
    return null;
  }
  const version = parseCheckId(id);
  if (version === null) {
    problem('id', `${JSON.stringify(id)} has no version suffix (lower case, ending in -v1, -v2, ...)`, id);
    return null;
  }
  let ok = true;
  const bad = (field: string, message: string) => {
    problem(field, message, id);
    ok = false;
  };
  const set = item['set'];
  if (!CHECK_SETS.includes(set as never)) bad('set', `must be one of ${CHECK_SETS.join(', ')}`);
  const scope = item['scope'];
  if (!EVIDENCE_SCOPES.includes(scope as never)) bad('scope', `must be one of ${EVIDENCE_SCOPES.join(', ')}`);
  const applies = item['applies_to'];
  const lists: Record<(typeof NAME_LIST_FIELDS)[number], string[]> = { scenarios: [], tags: [] };
  if (!isRecord(applies)) bad('applies_to', 'must be an object with "scenarios" and/or "tags" lists');
  else {
    for (const field of NAME_LIST_FIELDS) {
      const v = applies[field];
      if (v === undefined) continue;
      if (!Array.isArray(v) || !v.every((s) => typeof s === 'string' && s !== ''))
        bad(`applies_to.${field}`, 'must be a list of non-empty strings');
      else lists[field] = v as string[];
    }
    if (ok && lists.scenarios.length + lists.tags.length === 0)
      bad('applies_to', 'names no scenario and no tag: the check would audit nothing');
  }
  const question = item['question'];
  const options: string[] = [];
  const descriptions: string[] = [];
  let unclear: string | null = null;
  let instructions = '';
  if (!isRecord(question)) bad('question', 'must be an object with "instructions" and "options"');
  else {
    const ins = question['instructions'];
    if (typeof ins !== 'string' || ins.trim() === '') bad('question.instructions', 'must be a non-empty string');
    else instructions = ins;
    const opts = question['options'];
    if (!isRecord(opts)) bad('question.options', 'must be an object: option name -> description');
    else {
      for (const [name, description] of Object.entries(opts)) {
        if (name === UNCLEAR) bad(`question.options.${name}`, 'is reserved: give "unclear" as question.unclear');
        else if (!OPTION_NAME.test(name))
          bad(`question.options.${JSON.stringify(name)}`, 'an option name is lower case letters, digits and _');
        else if (typeof description !== 'string' || description.trim() === '')
          bad(`question.options.${name}`, 'the description must be a non-empty string');
        else {
          options.push(name);
          descriptions.push(description);
        }
      }
      if (ok && options.length < 2) bad('question.options', `needs at least 2 options (got ${options.length})`);
    }
    const u = question['unclear'];
    if (u !== undefined) {
      if (typeof u !== 'string' || u.trim() === '')
        bad('question.unclear', 'must be a non-empty description of when the evidence does not decide');
      else unclear = u;
    }
  }
  if (!ok) return null;
  return {
    id,
    base: version.base,
    version: version.version,
    set: set as AuditCheck['set'],
    scenarios: lists.scenarios,
    tags: lists.tags,
    instructions,
    options,
    descriptions,
    unclear,
    scope: scope as AuditCheck['scope'],
  };
}
