/**
 * Pass 1's shortcut for the questions of a case line: a large dataset asks a few question
 * sets over and over (one a workflow), written the same way on every line, and parsing them
 * is most of the work of checking a line (they are over half its bytes). A line whose
 * `questions` text is, byte for byte, one a line of the same workflow passed every check with
 * is parsed without it: the rest of the line is parsed strictly with a `0` in its place (the
 * same syntax, depth and repeated-key checks, since a JSON value can stand in for another and
 * the text was strict JSON in the same place before), and the case takes that line's
 * checked, shared question set. Any other line (a new text, another workflow, or a line that
 * does not parse this way) is checked in full, so every problem is found and worded as before.
 */
import { isRecord } from '../../core/json-value.js';
import type { QuestionSet } from '../../core/question.js';
import { endOfJsonString, parseStrictJson } from '../../core/strict-json.js';
import { topLevelFields } from './line-fields.js';

/** Distinct question texts remembered: a file whose sets hardly repeat gains nothing from more. */
const MAX_TEXTS = 64;

const QUESTIONS = new Set(['questions']);

export class RepeatedQuestions {
  /** Each remembered `questions` text, with the set of each workflow it passed in. */
  readonly #texts: { readonly text: string; readonly sets: Map<string, QuestionSet> }[] = [];

  /**
   * The line parsed strictly with its questions left out (`questions` is 0 in the value), the
   * question set they stand for, and where their text is in the line (`[from, to)`); null when
   * the full check must read the line.
   */
  parse(line: string): {
    readonly value: Record<string, unknown>;
    readonly questions: QuestionSet;
    readonly span: readonly [number, number];
  } | null {
    if (this.#texts.length === 0) return null;
    const from = questionsValueStart(line);
    if (from < 0) return null;
    const known = this.#texts.find((t) => line.startsWith(t.text, from));
    if (known === undefined) return null;
    const to = from + known.text.length;
    // The `0` must stand alone as the text did (`0e5` or `0.5` would read on into the line).
    let after = to;
    while (isSpace(line.charCodeAt(after))) after++;
    if (line.charCodeAt(after) !== 0x2c && line.charCodeAt(after) !== 0x7d) return null;
    const parsed = parseStrictJson(`${line.slice(0, from)}0${line.slice(to)}`);
    if (!parsed.ok || !isRecord(parsed.value) || parsed.value['questions'] !== 0) return null;
    const workflow = parsed.value['workflow'];
    const questions = typeof workflow === 'string' ? known.sets.get(workflow) : undefined;
    return questions === undefined ? null : { value: parsed.value, questions, span: [from, to] };
  }

  /** Remembers the questions of a line that passed every check, as the set `questions` of `workflow`. */
  remember(line: string, workflow: string, questions: QuestionSet): void {
    const span = topLevelFields(line, QUESTIONS).get('questions');
    if (span === undefined) return;
    const text = line.slice(span[0], span[1]);
    let known = this.#texts.find((t) => t.text === text);
    if (known === undefined) {
      if (this.#texts.length >= MAX_TEXTS) return;
      this.#texts.push((known = { text, sets: new Map() }));
    }
    if (!known.sets.has(workflow)) known.sets.set(workflow, questions);
  }
}

/**
 * Where the value of the row's own `questions` key starts (its first character after the
 * colon and any white space), or -1: keys are looked for at the top level of the line's
 * object only, skipping strings whole. The line need not be valid: the strict parse of what
 * it stands for decides.
 */
function questionsValueStart(text: string): number {
  let depth = 0;
  // At the top level, a string right after `{` or `,` is a key.
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = endOfJsonString(text, i);
      if (depth === 1 && keyNext && end - i === 10 && text.startsWith('"questions"', i)) {
        let j = end + 1;
        while (isSpace(text.charCodeAt(j))) j++;
        if (text.charCodeAt(j) !== 0x3a) return -1;
        j++;
        while (isSpace(text.charCodeAt(j))) j++;
        return j;
      }
      keyNext = false;
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      keyNext = depth === 1;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c) keyNext = depth === 1;
  }
  return -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
