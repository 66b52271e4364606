/**
 * Where each value of a JSON document sits: the 1-based line of every member's key and every
 * array element, by path, so a problem found in the parsed value can name its line. Pure: it
 * reads a text that `JSON.parse` has already accepted (on any other text it gives up quietly).
 */

/** A value's path: object keys and array indexes from the root (`['models', 1, 'model']`). */
export type JsonPath = readonly (string | number)[];

/** The line of a path, or of its nearest ancestor that has one; null for the root's own problems. */
export type JsonLineOf = (path: JsonPath) => number | null;

const keyOf = (path: JsonPath): string => JSON.stringify(path);

/** The lines of a JSON text's members and elements, looked up by path. */
export function jsonLinesOf(text: string): JsonLineOf {
  const lines = new Map<string, number>();
  let line = 1;
  let i = 0;
  const n = text.length;
  // Each open container: its path, whether it is an array, its next index, the key just read.
  const stack: { path: (string | number)[]; array: boolean; index: number; key: string | null }[] = [];
  const valueStarts = (): void => {
    const top = stack.at(-1);
    if (top === undefined || !top.array) return;
    lines.set(keyOf([...top.path, top.index]), line);
  };
  const childPath = (): (string | number)[] => {
    const top = stack.at(-1);
    if (top === undefined) return [];
    return [...top.path, top.array ? top.index : (top.key ?? '')];
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '"') {
      const start = i;
      for (i++; i < n && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      i++;
      const top = stack.at(-1);
      const isKey = top !== undefined && !top.array && top.key === null;
      if (isKey) {
        top.key = JSON.parse(text.slice(start, i)) as string;
        lines.set(keyOf([...top.path, top.key]), line);
      } else valueStarts();
    } else if (c === '{' || c === '[') {
      valueStarts();
      stack.push({ path: childPath(), array: c === '[', index: 0, key: null });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      const top = stack.at(-1);
      if (top !== undefined) {
        if (top.array) top.index++;
        else top.key = null;
      }
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === ':') {
      i++;
    } else {
      // A number, true, false or null: one token.
      valueStarts();
      while (i < n && !',}]\n \t\r'.includes(text[i]!)) i++;
    }
  }
  return (path) => {
    for (let end = path.length; end > 0; end--) {
      const found = lines.get(keyOf(path.slice(0, end)));
      if (found !== undefined) return found;
    }
    return null;
  };
}
