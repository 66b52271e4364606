import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors.js';
import type { CliIo } from './io.js';

export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Full help text: usage, options with defaults, an example. */
  readonly help: string;
  /** Returns the exit code: 0 ok, 1 invalid input or failed run, 2 usage error. */
  run(argv: readonly string[], io: CliIo): Promise<number>;
  /**
   * True when the command watches `io.signal` and stops cleanly itself (bench keeps finished
   * cases, serve drains connections). Other commands end at once on Ctrl+C with exit 130.
   */
  readonly handlesSignals?: boolean;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What parseArgs returns for these options (spelled out so declarations can name it). */
export type ParsedCommandArgs<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>
>;

/** node:util parseArgs, with its errors turned into UsageError. */
export function parseCommandArgs<O extends Options>(
  argv: readonly string[],
  options: O,
  allowPositionals = false,
): ParsedCommandArgs<O> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

/** Parses a number option; throws UsageError naming the option. */
export function numberOption(
  name: string,
  value: string | undefined,
  check?: (n: number) => boolean,
  hint?: string,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (check && !check(n))) {
    throw new UsageError(`--${name} ${JSON.stringify(value)} is not valid${hint ? ` (${hint})` : ''}`);
  }
  return n;
}
export function expandRepeatedOption(argv: readonly string[], name: string): string[] {
  const flag = `--${name}`;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    out.push(token);
    if (token === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    const inline = token.startsWith(`${flag}=`);
    if (token !== flag && !inline) continue;
    if (token === flag) {
      // The first value is parseArgs' own business (it reports a missing one).
      if (i + 1 < argv.length) out.push(argv[++i]!);
    }
    while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) out.push(flag, argv[++i]!);
  }
  return out;
}
export function requireOption(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}
