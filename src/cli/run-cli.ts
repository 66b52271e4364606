import {
  DecidekitError,
  InvalidInputError,
  OptionError,
  UsageError,
  formatProblem,
  type InputProblem,
} from '../core/errors.js';
import { escapeUnsafeText } from '../core/safe-text.js';
import { closest } from '../core/closest-word.js';
import { groupProblems } from '../core/problem-list.js';
import { COMMANDS } from './commands/index.js';
import { commandPrefixOf, withCommandPrefix } from './invocation.js';
import type { CliIo } from './io.js';
import { echoOf } from '../core/echo-text.js';
import { cliMessageOf } from './option-flags.js';
import { loadNamedStoreAdapters } from './store-adapters.js';
import { runCommand } from './define-command.js';
import { renderUsage, wrapHelpText, wrapRow } from './help-layout.js';
import { fitHanging } from '../reports/text-fit.js';

import { TOOL_VERSION as VERSION } from './version.js';

function renderTopHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = [
    wrapHelpText('decidekit: evaluate decision models (accuracy, calibration, KL, cost per correct decision)'),
    '',
    ...renderUsage('', ['<command> [options]', '<command> --help']),
    '',
    'Commands:',
    ...Object.entries(COMMANDS).flatMap(([name, c]) => wrapRow(`  ${name.padEnd(width)}  `, c.summary.split(/\s+/))),
    '',
    wrapHelpText(
      'Exit codes: 0 ok, 1 invalid input or failed run, 2 usage error, 130 interrupted (Ctrl+C), 143 stopped by SIGTERM, 129 by SIGHUP.',
    ),
  ];
  return lines.join('\n') + '\n';
}

/** Runs the CLI; the only place that maps errors to exit codes. */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  const io = withCommandPrefix(given, commandPrefixOf(given.env), Object.keys(COMMANDS));
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(renderTopHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    const guess = closest(name, Object.keys(COMMANDS));
    const hint = guess === null ? '' : `; did you mean '${guess}'?`;
    io.stderr.write(
      `decidekit: unknown command ${escapeUnsafeText(JSON.stringify(echoOf(name)))}${hint}\nRun 'decidekit --help' for the list of commands.\n`,
    );
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    const help = ((await command.subcommandOf?.(rest[0])) ?? command).help;
    io.stdout.write(help.endsWith('\n') ? help : `${help}\n`);
    return 0;
  }
  try {
    await loadNamedStoreAdapters(rest, io.env);
    return await runCommand(command, rest, io);
  } catch (err) {
    // Errors name the command as typed: 'runs gate', not 'runs'.
    const sub = (await command.subcommandOf?.(rest[0])) === undefined ? '' : ` ${rest[0]}`;
    return reportError(err, `${name}${sub}`, io);
  }
}

/**
 * One line per cause: a problem repeated on many lines is shown once, with its count and
 * first lines. Problems without line numbers (DuckDB's readers, a JSON file such as the
 * action spec) name their cases instead, or, with no case either, each different message.
 */
export function renderProblems(problems: readonly InputProblem[]): string[] {
  return groupProblems(problems).flatMap(({ first, lines, members }) => {
    if (lines.length === 1) return [formatProblem(first)];
    // A line is listed once, however many of its problems read alike.
    const numbered = [...new Set(lines.filter((l): l is number => l !== null))];
    if (numbered.length > 1) {
      const unit = first.unit === 'row' ? 'rows' : 'lines';
      return [`${formatProblem(first)}\n  (the same problem on ${numbered.length} ${unit}: ${firstFew(numbered)})`];
    }
    if (numbered.length === 1) return [...new Set(members.map(formatProblem))];
    const cases = [...new Set(members.flatMap((p) => (p.caseId === undefined ? [] : [p.caseId])))];
    if (cases.length > 1)
      return [`${formatProblem(first)}\n  (the same problem in ${cases.length} cases: ${firstFew(cases)})`];
    const texts = [...new Set(members.map(formatProblem))];
    return texts.length === 1 ? [`${texts[0]}\n  (the same problem ${members.length} times)`] : texts;
  });
}

/** "1, 2, 3, 4, 5 and 31 more". */
function firstFew(items: readonly (number | string)[]): string {
  const more = items.length > 5 ? ` and ${items.length - 5} more` : '';
  return `${items.slice(0, 5).join(', ')}${more}`;
}

function reportError(err: unknown, name: string, cliIo: CliIo): number {
  // A message may echo input (a file name, a value, a server's words): its control, zero-width
  // and bidirectional characters are shown as escapes, never written raw to the terminal.
  const io = {
    ...cliIo,
    stderr: {
      ...cliIo.stderr,
      write: (t: string) => cliIo.stderr.write(escapeUnsafeText(t, { keepLineBreaks: true })),
    },
  };
  if (err instanceof UsageError || err instanceof OptionError) {
    io.stderr.write(`decidekit ${name}: ${cliMessageOf(err)}\nRun 'decidekit ${name} --help' for usage.\n`);
    return 2;
  }
  if (err instanceof InvalidInputError) {
    // On a terminal a long problem wraps under itself; to a pipe each stays one line.
    for (const line of renderProblems(err.problems))
      io.stderr.write(`${fitHanging(line.split('\n'), io.stderr.columns)}\n`);
    if (err.omitted > 0) io.stderr.write(`... and ${err.omitted} more problems\n`);
    io.stderr.write(
      `decidekit ${name}: invalid input (${err.problems.length + err.omitted} problem${err.problems.length + err.omitted === 1 ? '' : 's'})\n`,
    );
    return 1;
  }
  if (err instanceof DecidekitError) {
    io.stderr.write(`decidekit ${name}: ${cliMessageOf(err)}\n`);
    return 1;
  }
  const message = err instanceof Error ? err.message : String(err);
  io.stderr.write(`decidekit ${name}: internal error: ${message}\n`);
  if (io.env['DECIDEKIT_DEBUG'] && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  return 1;
}
