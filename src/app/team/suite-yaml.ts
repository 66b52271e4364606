/**
 * A YAML suite file parsed into the same value its JSON twin gives, with the line of each
 * field by path, so a problem names its line in YAML as in JSON. Repeated keys are refused (as
 * the strict JSON parser refuses them) and aliases are bounded (a file of nested aliases cannot
 * expand without end).
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { JsonLineOf, JsonPath } from '../../core/json-lines.js';

/** A suite file's aliases: a page of settings needs few. */
const MAX_ALIASES = 100;

export type YamlParse =
  | { readonly ok: true; readonly value: unknown; readonly lineOf: JsonLineOf }
  | { readonly ok: false; readonly line: number | null; readonly message: string };

/** The YAML text's one document as a plain value, or why it is not one. */
export function parseYamlSuite(text: string): YamlParse {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    // The message's first line without its place (the line is given apart).
    const said = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    return { ok: false, line: error.linePos?.[0].line ?? null, message: said };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (err) {
    return { ok: false, line: null, message: err instanceof Error ? err.message : String(err) };
  }
  const lineAt = (node: Node | null | undefined): number | null =>
    node?.range === undefined || node.range === null ? null : lines.linePos(node.range[0]).line;
  const lineOf = (path: JsonPath): number | null => {
    let node: unknown = doc.contents;
    let line: number | null = null;
    for (const part of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === part);
        if (pair === undefined) break;
        line = lineAt(pair.key as Node) ?? line;
        node = pair.value;
      } else if (isSeq(node) && typeof part === 'number') {
        const item = node.items[part];
        if (item === undefined) break;
        line = lineAt(item as Node) ?? line;
        node = item;
      } else break;
    }
    return line;
  };
  return { ok: true, value, lineOf };
}
