/**
 * The transcripts file of `decidekit audit`: JSONL, one agent run a line. Every problem
 * names the file, the line, the transcript and the field; a line with one broken field
 * reports that field once.
 */
import { checkApplies, type Transcript, type TranscriptMessage } from '../../core/audit/transcript.js';
import type { AuditCheck } from '../../core/audit/check.js';
import { isRecord, preview } from '../../core/json-value.js';
import { ProblemList } from '../../core/problem-list.js';
import { readLines } from '../read-lines.js';

export interface LoadedTranscripts {
  readonly transcripts: readonly Transcript[];
  /** Transcript id -> 1-based line. */
  readonly lines: ReadonlyMap<string, number>;
}

/** Reads and validates a transcripts JSONL file; throws InvalidInputError with every problem. */
export async function loadTranscripts(path: string, displayPath = path): Promise<LoadedTranscripts> {
  const problems = new ProblemList();
  const transcripts: Transcript[] = [];
  const lines = new Map<string, number>();
  /** Every id seen, valid or not: a duplicate is a duplicate either way. */
  const seenOn = new Map<string, number>();
  await readLines(path, (text, line) => {
    if (text.trim() === '') return;
    const parsed = parseTranscriptLine(text, (field, message, id) =>
      problems.add({
        file: displayPath,
        line,
        message: `${id === undefined ? '' : `transcript ${JSON.stringify(id)}: `}${field === null ? '' : `${field}: `}${message}`,
      }),
    );
    if (parsed === null) return;
    const earlier = seenOn.get(parsed.id);
    if (earlier !== undefined) {
      problems.add({
        file: displayPath,
        line,
        message: `transcript ${JSON.stringify(parsed.id)}: id: already used on line ${earlier}`,
      });
      return;
    }
    seenOn.set(parsed.id, line);
    if (parsed.transcript === null) return;
    lines.set(parsed.id, line);
    transcripts.push(parsed.transcript);
  }).catch((err: unknown) => {
    if (err instanceof Error && 'code' in err && err.code === 'file_unreadable')
      throw Object.assign(err, { message: err.message.replace(path, displayPath) });
    throw err;
  });
  if (problems.count === 0 && transcripts.length === 0)
    problems.add({ file: displayPath, line: null, message: 'no transcripts (one JSON object a line)' });
  problems.throwIfAny();
  return { transcripts, lines };
}

/**
 * Refuses (InvalidInputError) transcripts that a selected check applies to but that carry no
 * verdict of that check, or a verdict that is not one of the check's options.
 */
export function refuseMissingLabels(loaded: LoadedTranscripts, checks: readonly AuditCheck[], file: string): void {
  const problems = new ProblemList();
  for (const t of loaded.transcripts) {
    for (const c of checks) {
      if (!checkApplies(c, t)) continue;
      const label = t.labels[c.id];
      const where = { file, line: loaded.lines.get(t.id) ?? null };
      if (label === undefined)
        problems.add({
          ...where,
          message: `transcript ${JSON.stringify(t.id)}: labels.${c.id}: missing (the check applies to this transcript)`,
        });
      else if (!c.options.includes(label))
        problems.add({
          ...where,
          message: `transcript ${JSON.stringify(t.id)}: labels.${c.id}: ${JSON.stringify(label)} is not an option of the check (${c.options.join(', ')})`,
        });
    }
  }
  problems.throwIfAny();
}

type Problem = (field: string | null, message: string, id?: string) => void;

function parseTranscriptLine(
  text: string,
  problem: Problem,
): { readonly id: string; readonly transcript: Transcript | null } | null {
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch {
    problem(null, `not valid JSON (starts ${preview(text.slice(0, 40), 50)})`);
    return null;
  }
  if (!isRecord(row)) {
    problem(null, 'not a JSON object');
    return null;
  }
  const id = row['id'];
  if (typeof id !== 'string' || id === '') {
    problem('id', 'missing (a non-empty string)');
    return null;
  }
  let ok = true;
  const bad = (field: string, message: string) => {
    problem(field, message, id);
    ok = false;
  };
  const scenario = row['scenario'] ?? null;
  if (scenario !== null && (typeof scenario !== 'string' || scenario === ''))
    bad('scenario', 'must be a non-empty string');
  const tags = row['tags'] ?? [];
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) bad('tags', 'must be a list of strings');
  const finalAnswer = row['final_answer'] ?? null;
  if (finalAnswer !== null && typeof finalAnswer !== 'string') bad('final_answer', 'must be a string or null');
  const messages: TranscriptMessage[] = [];
  const raw = row['messages'];
  if (!Array.isArray(raw)) bad('messages', 'must be a list of {role, content} objects');
  else {
    for (let i = 0; i < raw.length; i++) {
      const m: unknown = raw[i];
      if (!isRecord(m)) {
        bad(`messages[${i}]`, 'is not an object');
        break;
      }
      const role = m['role'];
      const content = m['content'] ?? null;
      if (typeof role !== 'string' || role === '') {
        bad(`messages[${i}].role`, 'must be a non-empty string');
        break;
      }
      if (content !== null && typeof content !== 'string') {
        bad(`messages[${i}].content`, `must be a string or null (got ${preview(content, 30)})`);
        break;
      }
      messages.push({ role, content });
    }
  }
  const labels = row['labels'];
  if (!isRecord(labels)) bad('labels', 'must be an object: check id -> option');
  else {
    for (const [check, option] of Object.entries(labels))
      if (typeof option !== 'string' || option === '') {
        bad(`labels.${check}`, 'must be an option name (a string)');
        break;
      }
  }
  if (!ok) return { id, transcript: null };
  const transcript: Transcript = {
    id,
    scenario: scenario as string | null,
    tags: tags as string[],
    messages,
    finalAnswer: finalAnswer as string | null,
    labels: labels as Record<string, string>,
  };
  return { id, transcript };
}
