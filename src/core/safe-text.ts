/**
 * Text that came from outside (a server's error body, a value it echoed) is shown in a
 * terminal and written to Markdown. Control characters in it could drive the terminal:
 * `ESC ] 0 ; title BEL` sets the window title, `ESC [ 2 J` clears the screen, OSC 52
 * writes the clipboard, and the C1 forms (U+009B is a one-character `ESC [`) do the same
 * without an ESC. Bidirectional overrides reorder what the reader sees. Pure.
 */

const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /[\t\n\r]/g;

/**
 * Removes C0 and C1 control characters (ESC, BEL, CSI, ...) and bidirectional overrides;
 * tabs and line breaks become spaces. Apply it where server text enters a message.
 */
export function stripControlChars(text: string): string {
  return text.replace(CONTROLS, '').replace(LINE_BREAKS, ' ');
}
