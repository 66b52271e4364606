import { jsonDocumentText } from '../../core/safe-text.js';
import type { StoreCheck } from '../../store/stored-run.js';
import { plural } from '../format.js';
import { singleLine } from '../format.js';
import { fitLines } from '../text-fit.js';
import { STORE_FLAG } from '../../core/command-hints.js';

/** SQLite's findings shown (a damaged file may have thousands; the JSON keeps every one). */
const MAX_FINDINGS_SHOWN = 10;

/**
 * `runs check`: one line per run, its problems indented under it, then the verdict. On a
 * terminal (`width` its columns) lines wrap between words; a file or pipe keeps them whole.
 */
export function renderStoreCheck(check: StoreCheck, width = Infinity): string {
  const out: string[] = [];
  if (check.integrity.length > 0) {
    out.push(`SQLite's check of ${check.path} found damage:`);
    const shown = check.integrity.length > MAX_FINDINGS_SHOWN + 1 ? MAX_FINDINGS_SHOWN : check.integrity.length;
    for (const line of check.integrity.slice(0, shown)) out.push(`  ${singleLine(line)}`);
    if (shown < check.integrity.length) out.push(`  … and ${check.integrity.length - shown} more`);
  }
  for (const run of check.runs) {
    out.push(
      `${run.problems.length === 0 ? 'ok ' : 'BAD'} ${run.id}  ${run.status ?? 'unknown status'}, ${plural(run.savedCases, 'saved case')}`,
    );
    for (const p of run.problems) out.push(`      ${singleLine(p)}`);
  }
  const bad = check.runs.filter((r) => r.problems.length > 0).length;
  out.push(
    check.integrity.length > 0 && check.runs.length === 0
      ? `${check.path}: the file is damaged and no run could be read from it (a copy made before the damage, or a new ${STORE_FLAG}, gets you going again).`
      : check.integrity.length === 0 && bad === 0
        ? `${check.path}: ${plural(check.runs.length, 'run')} checked; every one reads back as it was saved.`
        : `${check.path}: ${bad} of ${plural(check.runs.length, 'run')} ${bad === 1 ? 'differs' : 'differ'} from what was saved${check.integrity.length > 0 ? ', and the file is damaged' : ''}.`,
  );
  return `${fitLines(out, width)}\n`;
}

/** `runs check --json`: SQLite's findings and every run's problems, snake_case keys. */
export function renderStoreCheckJson(check: StoreCheck): string {
  const document = {
    path: check.path,
    integrity: [...check.integrity],
    runs: check.runs.map((r) => ({ id: r.id, status: r.status, saved_cases: r.savedCases, problems: [...r.problems] })),
  };
  return `${jsonDocumentText(document)}\n`;
}
