/**
 * Messages that name an option of a call. A library caller reads the option as the call
 * spells it (`outDir`, `storePath: null`); the command line reads the flag that sets it
 * (`--out`, `--no-store`). A message is kept as words, strings and option mentions, and
 * spelled for its reader: the library's spelling here, the flags in `src/cli/option-flags.ts`
 * (the one map from an option to its flag).
 */

/** Every option of a library call that a message may name, as the call spells it. */
export const CALL_OPTIONS = [
  'apiKey',
  'baseUrl',
  'bundleDir',
  'cacheDir',
  'calibrationPath',
  'checksPath',
  'conventions.eceAverage',
  'conventions.eceBinning',
  'conventions.eceBins',
  'costs.falseNegative',
  'costs.falsePositive',
  'dataset',
  'engine',
  'force',
  'host',
  'htmlPath',
  'leaseSec',
  'limit',
  'mapPath',
  'metricsUrl',
  'model',
  'outDir',
  'parallel',
  'parallelByReplica',
  'port',
  'pricePerMtokUsd',
  'recordPath',
  'resume',
  'retries',
  'retryAfter',
  'retryFailed',
  'revision',
  'runIds',
  'sample',
  'sample.seed',
  'sha256',
  'shards',
  'split',
  'storePath',
  'storePath: null',
  'table',
  'target',
  'thresholds',
  'timeoutMs',
  'timeoutSec',
  'transcriptsPath',
  'workflow',
] as const;

export type CallOption = (typeof CALL_OPTIONS)[number];

/** An option named in a message; `placeholder` is the value's name after a flag (`--resume RUN`). */
export interface OptionMention {
  readonly option: CallOption;
  readonly placeholder?: string;
}

/** A message as words: text, and the options it names. */
export type MessageWords = readonly (string | OptionMention)[];

/** Names an option in a message. */
export function optionMention(option: CallOption, placeholder?: string): OptionMention {
  return placeholder === undefined ? { option } : { option, placeholder };
}

/** What a message may splice in: text, a number, an option, other words or an error's message. */
export type WordValue = string | number | OptionMention | MessageWords | { readonly words: MessageWords } | Error;

/** A tagged template: words`${optionMention('resume')} needs the run store`. */
export function words(strings: TemplateStringsArray, ...values: readonly WordValue[]): MessageWords {
  const out: (string | OptionMention)[] = [];
  const push = (part: string | OptionMention) => {
    const last = out[out.length - 1];
    if (typeof part === 'string' && typeof last === 'string') out[out.length - 1] = last + part;
    else if (part !== '') out.push(part);
  };
  strings.forEach((text, i) => {
    push(text);
    if (i >= values.length) return;
    for (const part of wordsOf(values[i]!)) push(part);
  });
  return out;
}

/** Anything a message may splice in, as words (an error's words when it carries them). */
export function wordsOf(value: WordValue): MessageWords {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value as MessageWords;
  if ('words' in value) return value.words;
  if (value instanceof Error) return [value.message];
  return [value as OptionMention];
}

/** The message, each option spelled by `spell`. */
export function spellWords(message: MessageWords, spell: (mention: OptionMention) => string): string {
  return message.map((part) => (typeof part === 'string' ? part : spell(part))).join('');
}

/** The message as a library caller reads it: each option as the call spells it. */
export function spellForLibrary(message: MessageWords): string {
  return spellWords(message, (m) => m.option);
}

/** The words with `change` applied to their text (not to the options they name). */
export function mapWordText(message: MessageWords, change: (text: string) => string): MessageWords {
  return message.map((part) => (typeof part === 'string' ? change(part) : part));
}

/** Words joined by `separator`, as `Array.join` joins strings. */
export function joinWords(parts: readonly MessageWords[], separator: string): MessageWords {
  return parts.flatMap((part, i) => (i === 0 ? [...part] : [separator, ...part]));
}

/** A message as a library caller reads it, and as words for a caller that spells the options it names its own way. */
export interface Said {
  readonly message: string;
  readonly words: MessageWords;
}

/** The message and its words. */
export function said(message: MessageWords): Said {
  return { message: spellForLibrary(message), words: message };
}
