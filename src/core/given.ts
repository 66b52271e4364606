/**
 * The entries of `values` that were given (not undefined), typed as optional properties: how a
 * command passes on only the options the user set, so the use case's own defaults apply to the
 * rest.
 */
export function given<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
