/**
 * Which of the store's models a `/models/NAME` address names: the model column as the list
 * shows it, the same without its marks (`heuristic` finds `heuristic*`), in any case, or the
 * start of one name. When it names several, or none, the page says so and links the models
 * meant or the close ones.
 */
import { editDistance } from '../closest-word.js';

/** A model column without its marks: `heuristic*` (the built-in server's) and ` (server default)`. */
export function plainModelName(shown: string): string {
  return shown.replace(/ \(server default\)$/, '').replace(/\*$/, '');
}

export type ModelMatch =
  | { readonly kind: 'one'; readonly model: string }
  /** The name is the start of several models' names (or names them in other cases). */
  | { readonly kind: 'several'; readonly models: readonly string[] }
  /** No model; `near`: the close ones, nearest first. */
  | { readonly kind: 'none'; readonly near: readonly string[] };

/** Close models listed at most. */
const NEAR_LISTED = 10;

/** The model column `asked` means among those shown (`shown`: one entry a run, repeats allowed). */
export function matchModelName(shown: readonly string[], asked: string): ModelMatch {
  const models = [...new Set(shown)].sort();
  if (models.includes(asked)) return { kind: 'one', model: asked };
  const plain = plainModelName(asked);
  const lower = plain.toLowerCase();
  const key = (m: string): string => plainModelName(m).toLowerCase();
  const rules: ((m: string) => boolean)[] = [
    (m) => plainModelName(m) === plain,
    (m) => key(m) === lower,
    (m) => key(m).startsWith(lower),
  ];
  for (const fits of rules) {
    const found = models.filter(fits);
    if (found.length === 1) return { kind: 'one', model: found[0]! };
    if (found.length > 1) return { kind: 'several', models: found };
  }
  return { kind: 'none', near: nearModels(models, lower) };
}

/**
 * Models whose name holds the one asked, or lies a few edits from it or from its start
 * (a third of its length, at least one): nearest first, then by name.
 */
function nearModels(models: readonly string[], lower: string): string[] {
  // An address this long is no model's name mistyped.
  if (lower.length > 200) return [];
  const most = Math.max(1, Math.floor(lower.length / 3));
  const near: { model: string; edits: number; whole: number }[] = [];
  for (const model of models) {
    const name = plainModelName(model).toLowerCase();
    // A name far longer than any typo of it is no match (and its distance would cost time).
    if (name.length > 4 * lower.length + 8 && !name.includes(lower)) continue;
    const whole = editDistance(lower, name);
    const start = name.length > lower.length ? editDistance(lower, name.slice(0, lower.length)) : whole;
    const edits = name.includes(lower) ? 0 : Math.min(whole, start);
    if (edits <= most) near.push({ model, edits, whole });
  }
  near.sort((a, b) => a.edits - b.edits || a.whole - b.whole || (a.model < b.model ? -1 : 1));
  return near.slice(0, NEAR_LISTED).map((n) => n.model);
}
