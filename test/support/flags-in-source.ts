/**
 * Finds command-line flags (`--out`, `--base-url`) named in source lines. Below `src/cli` the
 * library names the options of a call instead (`outDir`, `baseUrl`), and only the hints
 * module spells flags; this is how a test finds a line that breaks that rule.
 */

/**
 * A flag as a message would name it: two dashes and a lower-case word of two letters or more,
 * not inside a longer word (`--n` is a decrement).
 */
const FLAG = /(?<![\w-])--[a-z][a-z0-9]+(?:-[a-z0-9]+)*(?![\w-])/g;

/** CSS custom properties: `var(--ink)` and a declaration `--ink: #000`. */
const CSS_PROPERTY = /var\(\s*--[\w-]+|(?<![\w-])--[\w-]+\s*:/g;

/** The flags a line names, outside comments and CSS custom properties. */
export function flagsInLine(line: string): string[] {
  const trimmed = line.trim();
  if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return [];
  const code = line.replace(/(^|[^:'"`\\])\/\/.*$/, '$1').replace(CSS_PROPERTY, '');
  return [...code.matchAll(FLAG)].map((m) => m[0]);
}

/** Each line of `text` that names a flag: its number and the flags. */
export function flagLines(text: string): { readonly line: number; readonly flags: readonly string[] }[] {
  return text.split('\n').flatMap((line, i) => {
    const flags = flagsInLine(line);
    return flags.length === 0 ? [] : [{ line: i + 1, flags }];
  });
}

/** Test code runs the CLI and may spell its flags: a test file, or a module that imports vitest. */
export function isTestCode(path: string, text: string): boolean {
  return /\.test\.ts$/.test(path) || /from '(vitest|vitest\/\w+)'/.test(text);
}
