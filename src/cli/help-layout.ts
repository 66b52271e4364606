/**
 * The layout of `--help` text: every line fits `HELP_COLUMNS`. Prose is written in the
 * command declarations as it reads best in source; here it is wrapped. A paragraph of
 * unindented lines is one run of words; an indented two-column row (a term, two spaces or
 * more, its text) wraps its text under itself; usage lines wrap between whole arguments
 * (a bracketed group is never split) under the first argument. Examples are command lines
 * to paste and are never rewrapped: their authors keep them short.
 */

/** Help fits a terminal of this width (the classic 80 columns). */
export const HELP_COLUMNS = 80;

/** Greedy word wrap: `first` starts the first line, `rest` every other; a word longer than a line stands alone. */
export function wrapWords(words: readonly string[], width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && [...line].length + 1 + [...word].length > width) {
      lines.push(line);
      line = rest + word;
    } else line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}

const wordsOf = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');

/** An indented row of a two-column table: the indent and term, and where its text starts. */
const TABLE_ROW = /^(\s+\S+(?: \S+)*\s{2,})(\S.*)$/;

/**
 * Wraps free help text (a description, notes): blank lines separate paragraphs; unindented
 * lines are prose, joined and wrapped; an indented row's text wraps under itself, taking the
 * more indented lines after it as its continuation; other indented lines stay as they are.
 */
export function wrapHelpText(text: string, width: number = HELP_COLUMNS): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i]!;
    if (line.trim() === '') {
      out.push('');
      i++;
    } else if (!/^\s/.test(line)) {
      const words: string[] = [];
      for (; i < lines.length && lines[i]!.trim() !== '' && !/^\s/.test(lines[i]!); i++)
        words.push(...wordsOf(lines[i]!));
      out.push(...wrapWords(words, width, '', ''));
    } else {
      const row = TABLE_ROW.exec(line);
      i++;
      if (row === null) {
        out.push(line);
        continue;
      }
      const head = row[1]!;
      const words = wordsOf(row[2]!);
      for (; i < lines.length && lines[i]!.trim() !== '' && indentOf(lines[i]!) >= head.length; i++)
        words.push(...wordsOf(lines[i]!));
      out.push(...wrapRow(head, words, width));
    }
  }
  return out.join('\n');
}

/** A table row's text under itself; when the term leaves too little room, on the lines below it. */
export function wrapRow(head: string, words: readonly string[], width: number = HELP_COLUMNS): string[] {
  if (width - head.length >= 28) return wrapWords(words, width, head, ' '.repeat(head.length));
  const indent = ' '.repeat(indentOf(head) + 4);
  return [head.trimEnd(), ...wrapWords(words, width, indent, indent)];
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * Usage lines of the command `name` (empty for the command list): each form starts
 * `Usage: decidekit NAME ` (the first) or lines up under it; a form given as several lines
 * (a line starting with white space continues the one before) is one form. A form wraps
 * between arguments, under its first argument; `[...]`, `(...)` and `<...>` groups stay whole.
 */
export function renderUsage(name: string, forms: readonly string[], width: number = HELP_COLUMNS): string[] {
  const joined: string[] = [];
  for (const form of forms) {
    if (/^\s/.test(form) && joined.length > 0) joined[joined.length - 1] += ` ${form.trim()}`;
    else joined.push(form.trim());
  }
  return joined.flatMap((form, i) => {
    const rest = name !== '' && form.startsWith(`${name} `) ? form.slice(name.length + 1) : form;
    const first = `${i === 0 ? 'Usage: ' : '       '}decidekit ${name === '' ? '' : `${name} `}`;
    return wrapWords(argumentsOf(rest), width, first, ' '.repeat(first.length));
  });
}

/** Splits a usage form at spaces outside brackets. */
function argumentsOf(form: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of form) {
    if ('[(<'.includes(ch)) depth++;
    if (')]>'.includes(ch)) depth = Math.max(0, depth - 1);
    if (ch === ' ' && depth === 0) {
      if (current !== '') args.push(current);
      current = '';
    } else current += ch;
  }
  if (current !== '') args.push(current);
  return args;
}
