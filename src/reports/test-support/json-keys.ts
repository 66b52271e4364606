/**
 * The paths of every object key in a parsed JSON document that is not snake_case (has an
 * upper-case letter), so a test can assert there are none. Keys that are data (workflow,
 * question or answer names) are skipped under the paths named in `dataKeysUnder`.
 */
export function nonSnakeKeys(value: unknown, dataKeysUnder: readonly string[] = [], path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nonSnakeKeys(v, dataKeysUnder, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const name = path.slice(path.lastIndexOf('.') + 1);
  const isData = dataKeysUnder.includes(name);
  return Object.entries(value).flatMap(([k, v]) => [
    ...(!isData && /[A-Z]/.test(k) ? [`${path}.${k}`] : []),
    ...nonSnakeKeys(v, dataKeysUnder, `${path}.${k}`),
  ]);
}
