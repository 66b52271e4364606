/** Escaping for HTML and SVG text and attribute values. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** A number in an SVG coordinate: two decimals at most, no trailing zeros. */
export function coord(value: number): string {
  return String(Math.round(value * 100) / 100);
}
