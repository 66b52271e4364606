/**
 * JSON text indented for reading, token by token, so the text shown is the text sent (no
 * number or escape rewritten) and a body cut short (`…` at the end) indents as far as it goes.
 */

/** `text` indented two spaces a level when it is a JSON object or array (whole or cut short); else as it is. */
export function indentJson(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => `\n${'  '.repeat(Math.max(0, depth))}`;
  for (let i = 0; i < trimmed.length; i++) {
    const ch = trimmed[i]!;
    if (inString) {
      out += ch;
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    switch (ch) {
      case '"':
        inString = true;
        out += ch;
        break;
      case '{':
      case '[': {
        const close = ch === '{' ? '}' : ']';
        const rest = trimmed.slice(i + 1).trimStart();
        if (rest.startsWith(close)) {
          out += ch + close;
          i = trimmed.length - rest.length;
        } else {
          depth++;
          out += ch + newline();
        }
        break;
      }
      case '}':
      case ']':
        depth--;
        out += newline() + ch;
        break;
      case ',':
        out += `,${newline()}`;
        break;
      case ':':
        out += ': ';
        break;
      case ' ':
      case '\n':
      case '\r':
      case '\t':
        break;
      default:
        out += ch;
    }
  }
  return out;
}
