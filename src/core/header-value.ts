import { OptionError } from './errors.js';
import { optionMention, words, type CallOption } from './message-words.js';

/**
 * A value sent in an HTTP header: no line breaks (they would start a new header) and only
 * Latin-1 characters (all HTTP can carry). The value itself is never shown.
 */
export function refuseUnsafeHeaderValue(option: CallOption, value: string): void {
  const name = optionMention(option);
  if (/[\r\n]/.test(value))
    throw new OptionError(option, words`${name} contains a line break (an HTTP header cannot carry it)`);
  const bad = [...value].findIndex((ch) => ch.codePointAt(0)! > 0xff || ch.codePointAt(0)! < 0x20);
  if (bad >= 0)
    throw new OptionError(
      option,
      words`${name} has a character an HTTP header cannot carry at position ${bad + 1} (only Latin-1 printable characters)`,
    );
}
