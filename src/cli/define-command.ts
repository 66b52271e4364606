/**
 * Commands declared once: each option's name, value hint, help, check and default live in
 * one object, from which the `node:util parseArgs` configuration, the value checks and the
 * `--help` text are all derived. A test walks every declared command and proves each option
 * parses and appears in its help.
 */
import { echoOf } from '../core/echo-text.js';
import { given } from '../core/given.js';
import { parseArgs } from 'node:util';
import { closest } from '../core/closest-word.js';
import { UsageError } from '../core/errors.js';
import { renderUsage, wrapHelpText, wrapRow } from './help-layout.js';
import { endsWhenInterrupted, type CliIo } from './io.js';

/** What `runCli` needs of a command. */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Full help text: usage, options with defaults, exit codes, examples. */
  readonly help: string;
  /** Returns the exit code: 0 ok, 1 invalid input or failed run, 2 usage error, 130 interrupted. */
  run(argv: readonly string[], io: CliIo): Promise<number>;
  /**
   * True when the command watches `io.signal` and stops cleanly itself (bench keeps finished
   * cases, serve drains connections). Other commands end at once on Ctrl+C with exit 130.
   */
  readonly handlesSignals?: boolean;
  /** Declared options (for tests and "did you mean"); subcommand groups list their subcommands'. */
  readonly options?: Readonly<Record<string, Option<unknown>>>;
  /** A group's subcommands, each loaded (for tests and "did you mean"). */
  readonly loadSubcommands?: () => Promise<readonly Command[]>;
  /** A group's subcommand by the word typed after the group's name, loaded; undefined for no such word. */
  readonly subcommandOf?: (word: string | undefined) => Promise<Command | undefined>;
}

/**
 * A group's subcommand by its word and summary, its module loaded only when it runs or shows
 * its help: `decidekit runs report` then loads the report's code, not every other `runs`
 * subcommand's (the store sync's, compare's statistics, the HTML pages).
 */
export interface SubcommandEntry {
  /** The word typed after the group's name (`report` in `runs report`). */
  readonly word: string;
  /** The same as the loaded command's `summary` (`commands.test.ts` checks). */
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

/** One declared option: how it reads on the command line, how it is checked, how it is documented. */
export interface Option<T> {
  readonly kind: 'flag' | 'value' | 'list';
  /** Placeholder in help, e.g. `URL`, `N`, `FILE` (values only). */
  readonly hint: string;
  /** Help text; `\n` starts an indented continuation line. */
  readonly help: string;
  /** Shown in help as "(default …)"; undefined for none. */
  readonly defaultText?: string;
  /** A valid value, used by the test that parses every documented option. */
  readonly example: string;
  /**
   * The command cannot run without it: absent (a list: empty) is a usage error, checked once
   * the command line has parsed. `true` says `--NAME is required`; a string is the message.
   */
  readonly required?: true | string;
  /** Options that cannot be given with this one (`--no-store` with `--store`): a usage error. */
  readonly conflictsWith?: readonly string[];
  /** Checks and converts the raw value (undefined when absent); throws UsageError. */
  readonly parse: (raw: string | boolean | string[] | undefined, flag: string) => T;
}

type Values<O> = { -readonly [K in keyof O]: O[K] extends Option<infer T> ? T : never };

/** A boolean switch: true when given. */
export function flag(help: string): Option<boolean> {
  return { kind: 'flag', hint: '', help, example: '', parse: (raw) => raw === true };
}

interface ValueSettings<T> {
  readonly default?: T;
  readonly defaultText?: string;
  readonly example?: string;
}

/** An option the command cannot run without (see `Option.required`); its value is never undefined. */
interface Required {
  readonly required: true | string;
}

function requiredOf(settings: { readonly required?: true | string }): { required?: true | string } {
  return given({ required: settings.required });
}

/** A string value; absent is `undefined` unless a default is given. */
export function text(hint: string, help: string): Option<string | undefined>;
export function text(hint: string, help: string, settings: ValueSettings<string> & { default: string }): Option<string>;
export function text(
  hint: string,
  help: string,
  settings: ValueSettings<string> & Required & { readonly maxLength?: number },
): Option<string>;
export function text(
  hint: string,
  help: string,
  settings: ValueSettings<string> & { readonly maxLength?: number },
): Option<string | undefined>;
export function text(
  hint: string,
  help: string,
  settings: ValueSettings<string> & { readonly maxLength?: number; readonly required?: true | string } = {},
): Option<string | undefined> {
  return {
    kind: 'value',
    hint,
    help,
    ...defaultTextOf(settings),
    ...requiredOf(settings),
    example: settings.example ?? 'x',
    parse: (raw, name) => {
      if (raw === undefined) return settings.default;
      const value = raw as string;
      if (value === '') throw new UsageError(`--${name} needs a value (${hint})`);
      const length = [...value].length;
      if (settings.maxLength !== undefined && length > settings.maxLength)
        throw new UsageError(`--${name} is ${length} characters long; at most ${settings.maxLength}`);
      return value;
    },
  };
}

/** The longest run or audit label: it titles reports and fills a `runs list` column. */
export const MAX_LABEL_CHARACTERS = 200;

/** One of a fixed set of words. */
export function oneOf<const W extends string>(hint: string, words: readonly W[], help: string): Option<W | undefined>;
export function oneOf<const W extends string>(
  hint: string,
  words: readonly W[],
  help: string,
  settings: ValueSettings<W> & { default: W },
): Option<W>;
export function oneOf<const W extends string>(
  hint: string,
  words: readonly W[],
  help: string,
  settings: ValueSettings<W> & Required,
): Option<W>;
export function oneOf<const W extends string>(
  hint: string,
  words: readonly W[],
  help: string,
  settings: ValueSettings<W>,
): Option<W | undefined>;
export function oneOf<const W extends string>(
  hint: string,
  words: readonly W[],
  help: string,
  settings: ValueSettings<W> & { readonly required?: true | string } = {},
): Option<W | undefined> {
  return {
    kind: 'value',
    hint,
    help,
    ...defaultTextOf(settings),
    ...requiredOf(settings),
    example: settings.example ?? words[0]!,
    parse: (raw, name) => {
      if (raw === undefined) return settings.default;
      if (!(words as readonly string[]).includes(raw as string))
        throw new UsageError(`--${name} ${JSON.stringify(echoOf(raw as string))} is not one of: ${words.join(', ')}`);
      return raw as W;
    },
  };
}

/** A repeatable value: `--results a b` or `--results a --results b`. */
export function list(
  hint: string,
  help: string,
  settings: { readonly example?: string; readonly required?: true | string } = {},
): Option<string[]> {
  return {
    kind: 'list',
    hint,
    help,
    ...requiredOf(settings),
    example: settings.example ?? 'x',
    parse: (raw) => (raw === undefined ? [] : [...(raw as string[])]),
  };
}

/** A repeatable whole number: `--parallel 8 2` or `--parallel 8 --parallel 2`, each checked as `integer` checks one. */
export function integers(hint: string, help: string, settings: NumberSettings = {}): Option<number[]> {
  const one = numberOption(hint, help, settings, true);
  return {
    kind: 'list',
    hint,
    help,
    ...defaultTextOf(settings),
    example: one.example,
    parse: (raw, name) => (raw === undefined ? [] : (raw as string[]).map((value) => one.parse(value, name)!)),
  };
}

interface NumberSettings extends ValueSettings<number> {
  readonly min?: number;
  readonly max?: number;
  /** The lower bound itself is not allowed (e.g. a timeout > 0). */
  readonly above?: number;
}

/** Node timers hold at most 2^31 - 1 ms (about 24.8 days): the longest wait, in seconds. */
export const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const WHOLE = /^\d+$/;

/** A whole number written in decimal digits (no `1e9`, `0x10`, `+3` or `2.0`). */
export function integer(hint: string, help: string, settings: NumberSettings & { default: number }): Option<number>;
export function integer(hint: string, help: string, settings?: NumberSettings): Option<number | undefined>;
export function integer(hint: string, help: string, settings: NumberSettings = {}): Option<number | undefined> {
  return numberOption(hint, help, settings, true);
}

/** A decimal number (`0.5`, `2`, `1e-3`; no hex, no `Infinity`). */
export function decimal(hint: string, help: string, settings: NumberSettings & { default: number }): Option<number>;
export function decimal(hint: string, help: string, settings?: NumberSettings): Option<number | undefined>;
export function decimal(hint: string, help: string, settings: NumberSettings = {}): Option<number | undefined> {
  return numberOption(hint, help, settings, false);
}

function numberOption(hint: string, help: string, s: NumberSettings, whole: boolean): Option<number | undefined> {
  const range = rangeText(s, whole);
  return {
    kind: 'value',
    hint,
    help,
    ...defaultTextOf(s),
    example: s.example ?? String(s.default ?? s.min ?? (s.above !== undefined ? s.above + 1 : 1)),
    parse: (raw, name) => {
      if (raw === undefined) return s.default;
      const value = (raw as string).trim();
      const n = Number(value);
      const ok =
        (whole ? WHOLE.test(value) : DECIMAL.test(value)) &&
        Number.isFinite(n) &&
        (s.min === undefined || n >= s.min) &&
        (s.max === undefined || n <= s.max) &&
        (s.above === undefined || n > s.above);
      if (!ok) throw new UsageError(`--${name} ${JSON.stringify(echoOf(raw as string))} is not valid (${range})`);
      return n;
    },
  };
}

function rangeText(s: NumberSettings, whole: boolean): string {
  const what = whole ? 'a whole number' : 'a number';
  const low = s.above !== undefined ? `> ${s.above}` : s.min !== undefined ? `>= ${s.min}` : null;
  if (low !== null && s.max !== undefined) {
    return s.above === undefined && whole ? `${what} from ${s.min} to ${s.max}` : `${what} ${low} and <= ${s.max}`;
  }
  if (low !== null) return `${what} ${low}`;
  if (s.max !== undefined) return `${what} <= ${s.max}`;
  return what;
}

function defaultTextOf(s: ValueSettings<unknown>): { defaultText?: string } {
  if (s.defaultText !== undefined) return { defaultText: s.defaultText };
  return s.default === undefined ? {} : { defaultText: String(s.default) };
}

export interface CommandSpec<O extends Record<string, Option<unknown>>> {
  readonly name: string;
  readonly summary: string;
  /** Usage lines after `decidekit `, e.g. `score --dataset FILE --results FILE [--json]`. */
  readonly usage: string | readonly string[];
  /** Paragraphs between the usage and the options. */
  readonly description?: string;
  readonly options: O;
  /** Positional arguments: their names as shown in errors, or a check of their own. */
  readonly positionals?: readonly string[] | { readonly min: number; readonly max: number; readonly names: string };
  /** Sections after the options (e.g. fault injection notes). */
  readonly notes?: string;
  readonly exitCodes?: string;
  /** Each example a command line; `\n` continues one example on the next line. */
  readonly examples: readonly string[];
  readonly handlesSignals?: boolean;
  run(args: { values: Values<O>; positionals: string[] }, io: CliIo): Promise<number>;
}

const DEFAULT_EXIT_CODES = '0 ok, 1 invalid input (every problem listed), 2 usage error, 130 interrupted.';

/** Builds a `Command` from its one declaration. */
export function defineCommand<O extends Record<string, Option<unknown>>>(spec: CommandSpec<O>): Command {
  // Made when asked for: a command that runs has no use for its help text.
  let help: string | undefined;
  return {
    name: spec.name,
    summary: spec.summary,
    get help() {
      return (help ??= renderCommandHelp(spec));
    },
    options: spec.options,
    ...(spec.handlesSignals ? { handlesSignals: true } : {}),
    async run(argv, io) {
      const { values, positionals, given: typed } = parseCommandLine(argv, spec.options);
      refuseConflictingOptions(typed, spec.options);
      refuseWrongPositionals(spec, positionals);
      refuseMissingRequired(values, spec.options);
      return spec.run({ values: values as Values<O>, positionals }, io);
    },
  };
}

/**
 * A command made of subcommands (`runs list`, `dataset fetch`): each declared once itself,
 * named in full (`runs list`) so its help and errors read as typed. A subcommand given as a
 * `SubcommandEntry` is loaded only when it is used.
 */
export function defineCommandGroup(spec: {
  readonly name: string;
  readonly summary: string;
  readonly description: string;
  readonly subcommands: readonly (Command | SubcommandEntry)[];
  readonly examples: readonly string[];
}): Command {
  const entries: SubcommandEntry[] = spec.subcommands.map((c) =>
    'load' in c
      ? c
      : {
          word: c.name.startsWith(`${spec.name} `) ? c.name.slice(spec.name.length + 1) : c.name,
          summary: c.summary,
          load: () => Promise.resolve(c),
        },
  );
  const words = entries.map((e) => e.word);
  const width = Math.max(...words.map((w) => w.length));
  const renderHelp = (): string =>
    [
      wrapHelpText(`decidekit ${spec.name}: ${spec.summary}`),
      '',
      ...renderUsage(spec.name, ['<subcommand> [options]', '<subcommand> --help']),
      '',
      wrapHelpText(spec.description.trimEnd()),
      '',
      'Subcommands:',
      ...entries.flatMap((e) => wrapRow(`  ${e.word.padEnd(width)}  `, e.summary.split(/\s+/))),
      '',
      'Examples:',
      ...spec.examples.map((e) => `  ${e}`),
      '',
    ].join('\n');
  let help: string | undefined;
  const subcommandOf = async (sub: string | undefined) => entries.find((e) => e.word === sub)?.load();
  return {
    name: spec.name,
    summary: spec.summary,
    get help() {
      return (help ??= renderHelp());
    },
    loadSubcommands: () => Promise.all(entries.map((e) => e.load())),
    subcommandOf,
    // Each subcommand says whether it watches the signal: the group only passes it on.
    handlesSignals: true,
    async run(argv, io) {
      const [sub, ...rest] = argv;
      if (sub === undefined) throw new UsageError(`${spec.name} needs a subcommand (${words.join(', ')})`);
      const command = await subcommandOf(sub);
      if (!command) {
        const guess = closest(sub, words);
        throw new UsageError(
          `unknown subcommand ${JSON.stringify(echoOf(sub))} (${words.join(', ')})${guess ? `; did you mean '${guess}'?` : ''}`,
        );
      }
      return runCommand(command, rest, io);
    },
  };
}

/**
 * Runs `command` on `argv`: one that does not watch `io.signal` returns as soon as the signal
 * aborts (`endsWhenInterrupted`), one that does returns when it has stopped cleanly.
 */
export function runCommand(command: Command, argv: readonly string[], io: CliIo): Promise<number> {
  return command.handlesSignals ? command.run(argv, io) : endsWhenInterrupted(command.run(argv, io), io);
}

/** Renders a command's help from its declaration. */
export function renderCommandHelp(spec: CommandSpec<Record<string, Option<unknown>>>): string {
  const usage = typeof spec.usage === 'string' ? [spec.usage] : spec.usage;
  const entries = Object.entries(spec.options).map(([name, o]) => ({
    left: `--${name}${o.kind === 'flag' ? '' : ` ${o.hint}${o.kind === 'list' ? ' ...' : ''}`}`,
    help:
      o.help +
      (o.required === undefined ? '' : ' (required)') +
      (o.conflictsWith === undefined ? '' : ` (not with ${o.conflictsWith.map((c) => `--${c}`).join(', ')})`) +
      (o.defaultText === undefined ? '' : ` (default ${o.defaultText})`),
  }));
  const width = Math.max(0, ...entries.map((e) => e.left.length)) + 2;
  const optionLines = entries.flatMap((e) => wrapRow(`  ${e.left.padEnd(width)}`, e.help.split(/\s+/)));
  const lines = [
    wrapHelpText(`decidekit ${spec.name}: ${spec.summary}`),
    '',
    ...renderUsage(
      spec.name,
      usage.flatMap((u) => u.split('\n')),
    ),
    '',
    ...(spec.description ? [wrapHelpText(spec.description.trimEnd()), ''] : []),
    'Options:',
    ...optionLines,
    '',
    ...(spec.notes ? [wrapHelpText(spec.notes.trimEnd()), ''] : []),
    wrapHelpText(`Exit codes: ${spec.exitCodes ?? DEFAULT_EXIT_CODES}`),
    '',
    spec.examples.length === 1 ? 'Example:' : 'Examples:',
    ...spec.examples.flatMap((e) => e.split('\n').map((line) => `  ${line}`)),
    '',
  ];
  return lines.join('\n');
}

/**
 * Parses argv against the declared options with `node:util parseArgs` (strict), then runs
 * each option's check. A value option given twice is a usage error (parseArgs would keep the
 * last silently); list options take several values in a row.
 */
export function parseCommandLine(
  argv: readonly string[],
  options: Readonly<Record<string, Option<unknown>>>,
): { values: Record<string, unknown>; positionals: string[]; given: ReadonlySet<string> } {
  const config = Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      o.kind === 'flag' ? { type: 'boolean' as const } : { type: 'string' as const, multiple: true },
    ]),
  );
  const lists = Object.keys(options).filter((n) => options[n]!.kind === 'list');
  let parsed: ReturnType<typeof parseArgs<{ options: typeof config; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({
      args: expandLists(argv, lists),
      options: config,
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw usageErrorOf(err, Object.keys(options));
  }
  const values: Record<string, unknown> = {};
  for (const [name, o] of Object.entries(options)) {
    const raw = (parsed.values as Record<string, string[] | boolean | undefined>)[name];
    if (o.kind === 'value' && Array.isArray(raw) && raw.length > 1)
      throw new UsageError(`--${name} is given ${raw.length} times; give it once`);
    const one = o.kind === 'value' && Array.isArray(raw) ? raw[0] : raw;
    values[name] = o.parse(one, name);
  }
  const typed = new Set(Object.keys(parsed.values).filter((n) => parsed.values[n] !== undefined));
  return { values, positionals: parsed.positionals, given: typed };
}

/** Two options declared as conflicting (`Option.conflictsWith`) given together, as a usage error. */
function refuseConflictingOptions(
  typed: ReadonlySet<string>,
  options: Readonly<Record<string, Option<unknown>>>,
): void {
  for (const [name, o] of Object.entries(options)) {
    if (!typed.has(name)) continue;
    const other = (o.conflictsWith ?? []).find((c) => typed.has(c));
    if (other !== undefined) throw new UsageError(`--${other} and --${name} cannot be given together; give one`);
  }
}

/** The first required option left out, in declaration order, as a usage error. */
function refuseMissingRequired(
  values: Readonly<Record<string, unknown>>,
  options: Readonly<Record<string, Option<unknown>>>,
): void {
  for (const [name, o] of Object.entries(options)) {
    if (o.required === undefined) continue;
    const value = values[name];
    if (value === undefined || (Array.isArray(value) && value.length === 0))
      throw new UsageError(o.required === true ? `--${name} is required` : o.required);
  }
}

function refuseWrongPositionals(spec: CommandSpec<Record<string, Option<unknown>>>, got: readonly string[]): void {
  const p = spec.positionals ?? [];
  const [min, max, shown] = Array.isArray(p)
    ? [p.length, p.length, p.join(' ')]
    : [(p as { min: number }).min, (p as { max: number }).max, (p as { names: string }).names];
  if (got.length >= min && got.length <= max) return;
  if (max === 0) throw new UsageError(`unexpected argument ${JSON.stringify(echoOf(got[0]!))}`);
  if (got.length < min) throw new UsageError(`${spec.name} needs ${shown}`);
  throw new UsageError(`${spec.name} takes ${shown}; got an extra argument ${JSON.stringify(echoOf(got[max]!))}`);
}

/** `--results a b` → `--results a --results b`; values stop at the next token starting with `-`. */
function expandLists(argv: readonly string[], lists: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    out.push(token);
    if (token === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    const name = lists.find((l) => token === `--${l}` || token.startsWith(`--${l}=`));
    if (name === undefined) continue;
    // The first value is parseArgs' own business (it reports a missing one).
    if (token === `--${name}` && i + 1 < argv.length) out.push(argv[++i]!);
    while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) out.push(`--${name}`, argv[++i]!);
  }
  return out;
}

function usageErrorOf(err: unknown, known: readonly string[]): UsageError {
  const message = (err instanceof Error ? err.message : String(err)).replace(/^TypeError \[[A-Z_]+\]: /, '');
  const unknown = /^Unknown option '(-{1,2}[^']*)'/.exec(message);
  if (unknown) {
    const typed = unknown[1]!;
    const name = typed.replace(/^-+/, '').split('=')[0]!;
    const given = echoOf(typed);
    // `--format html` elsewhere (runs compare, report): here the formats are their own options.
    if (name === 'format' && known.includes('html'))
      return new UsageError(
        `unknown option ${given} (here the report formats are options: --html FILE${known.includes('json') ? ', --json' : ''})`,
      );
    const guess = closest(name, known);
    return new UsageError(`unknown option ${given}${guess ? ` (did you mean --${guess}?)` : ''}`);
  }
  const ambiguous = /^Option '(?:-\w, )?(--[\w-]+)' argument is ambiguous/.exec(message);
  if (ambiguous)
    return new UsageError(`${ambiguous[1]} needs a value (for one starting with '-', write ${ambiguous[1]}=VALUE)`);
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
  if (missing) return new UsageError(`${missing[1]} needs a value`);
  const positional = /^Unexpected argument '([^']*)'/.exec(message);
  if (positional) return new UsageError(`unexpected argument ${JSON.stringify(echoOf(positional[1]!))}`);
  return new UsageError(message);
}
