/**
 * The shortest prefix of `id`, at least `atLeast` characters long, that no id of `others` starts
 * with. Run ids made in the same second share their first 16 characters and differ in random hex
 * after that, so a fixed-length prefix can name two runs by chance.
 */
export function uniquePrefix(id: string, others: readonly string[], atLeast = 17): string {
  for (let length = atLeast; length < id.length; length++) {
    const prefix = id.slice(0, length);
    if (!others.some((other) => other !== id && other.startsWith(prefix))) return prefix;
  }
  return id;
}
