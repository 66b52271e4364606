/**
 * Text that came from outside (a server's error body, a value it echoed, a file's fields, a
 * name on the command line) is shown in a terminal and written to Markdown. Control
 * characters in it could drive the terminal: `ESC ] 0 ; title BEL` sets the window title,
 * `ESC [ 2 J` clears the screen, OSC 52 writes the clipboard, and the C1 forms (U+009B is a
 * one-character `ESC [`) do the same without an ESC. Bidirectional overrides reorder what the
 * reader sees (U+202E shows `gnp.exe` as `exe.png`), and zero-width characters hide inside a
 * word (a key split by U+200B still reads whole, and escapes a search for the key). U+2028 and
 * U+2029 break lines in some terminals and editors. Pure.
 */

/** Invisible characters that change what a reader sees: zero-width, bidirectional, soft hyphen (a regex class body). */
const INVISIBLE_CHARS = '\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, 'g');
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const LINE_BREAKS = /[\t\n\r]/g;
/** Every character {@link escapeUnsafeText} escapes on one line. */
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE_CHARS}]`, 'g');
/** As {@link UNSAFE}, but tabs and line feeds kept. */
const UNSAFE_BUT_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE_CHARS}]`, 'g');

/**
 * Removes C0 and C1 control characters (ESC, BEL, CSI, ...), bidirectional overrides and
 * zero-width characters; tabs and line breaks become spaces. Apply it where server text
 * enters a message (before secrets are scrubbed from it, so a split secret is found).
 */
export function stripControlChars(text: string): string {
  return text.replace(CONTROLS, '').replace(INVISIBLE, '').replace(LINE_BREAKS, ' ');
}

/** Removes zero-width and bidirectional characters (and the soft hyphen), keeping everything else. */
export function stripInvisibleChars(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * Shows every control, zero-width and bidirectional character as an escape (`\n`, `\t`,
 * `\u001b`, `\u202e`), so what is printed is what the text holds and cannot drive the
 * terminal. `keepLineBreaks` keeps tabs and line feeds (a message of several lines).
 */
export function escapeUnsafeText(text: string, options: { readonly keepLineBreaks?: boolean } = {}): string {
  return text.replace(options.keepLineBreaks === true ? UNSAFE_BUT_LINES : UNSAFE, (c) =>
    c < '\u0020' ? JSON.stringify(c).slice(1, -1) : unicodeEscape(c),
  );
}

/** `\uXXXX` for one UTF-16 unit (JSON.stringify leaves DEL and the C1 controls raw). */
function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The characters JSON.stringify leaves raw that {@link escapeUnsafeText} escapes. */
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f${INVISIBLE_CHARS}]`, 'g');

/**
 * JSON text with every control, zero-width, bidirectional and line-separator character
 * written as `\uXXXX`: the document parses to the same value, and no raw character that
 * could drive a terminal reaches it. Such characters appear only inside strings, where the
 * escape means the same character.
 */
export function escapeUnsafeJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, unicodeEscape);
}

/** `JSON.stringify(value, null, 2)` as every `--json` document is printed: unsafe characters escaped. */
export function jsonDocumentText(value: unknown): string {
  return escapeUnsafeJson(JSON.stringify(value, null, 2));
}
