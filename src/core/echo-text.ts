/**
 * The one cut for input echoed back (an argument, a URL, a query key, a path): a long one
 * is shown as its start and its length, so a message stays a line however much was typed.
 */

/** The longest piece of typed input echoed back in a message; a longer one is cut, saying its length. */
export const ECHO_CHARACTERS = 60;

/** Typed input as a message shows it: cut to `max` characters (default {@link ECHO_CHARACTERS}), saying its length. */
export function echoOf(typed: string, max: number = ECHO_CHARACTERS): string {
  const chars = [...typed];
  if (chars.length <= max) return typed;
  return `${chars.slice(0, max).join('')}… (${chars.length.toLocaleString('en-US')} characters)`;
}
