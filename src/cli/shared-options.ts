/**
 * Options that several commands declare alike, written once: the model server to talk to
 * (`bench`, `live`, and any command that sends decisions), the benchmark dataset, and the
 * run store. Each command spreads the group it needs into its own `options`.
 */
import { UsageError } from '../core/errors.js';
import { flag, text, type Option } from './define-command.js';
import type { CliIo } from './io.js';
import { datasetChoiceOf, storePathOf } from './locations.js';
import type { DatasetChoice } from '../app/dataset-choice.js';
import type { FileCommand } from './wrong-file.js';

/** `--base-url`, `--model`, `--api-key`: where decisions are sent. */
export function modelServerOptions(embeddedDefault: string) {
  return {
    'base-url': text('URL', 'server base URL (endpoint: <URL>/v1/systemone)', {
      defaultText: embeddedDefault,
      example: 'http://127.0.0.1:8080',
    }),
    model: text(
      'NAME',
      'sent as "model"; with the embedded server, picks the built-in model\n(heuristic, prior, uniform, zero; default heuristic)',
    ),
    'api-key': text('KEY', 'Bearer key (or env DECIDEKIT_API_KEY); never stored or printed'),
  };
}

/** `--api-key`, else `DECIDEKIT_API_KEY`; an empty value means none. */
export function apiKeyOf(value: string | undefined, io: CliIo): string | undefined {
  const key = value ?? io.env['DECIDEKIT_API_KEY'];
  return key === undefined || key === '' ? undefined : key;
}

/** `--dataset` of the commands that run Typed Decisions cases. */
export const benchDatasetOption = text('D', 'sample | typed-decisions | PATH (.parquet, .jsonl, .jsonl.gz)', {
  defaultText: 'sample',
});

/**
 * The `--dataset` value of a command that runs Typed Decisions cases: `sample`,
 * `typed-decisions` or a path resolved against the working directory. A path that holds
 * another kind of file (offline results, a run store, ...) is refused here, before any work,
 * with what it is and the command that reads it.
 */
export async function benchDatasetOf(
  value: string | undefined,
  io: CliIo,
  command: FileCommand & ('bench' | 'live' | 'probe'),
): Promise<DatasetChoice | undefined> {
  if (value === undefined) return undefined;
  const choice = datasetChoiceOf(value, io);
  if (choice.kind === 'path') {
    // The file sniffers are loaded only for a dataset given as a path: the many commands
    // that share these options (`runs report`, `runs export`) need none of them.
    const { refuseWrongFiles } = await import('./wrong-file.js');
    await refuseWrongFiles([{ option: '--dataset', path: choice.path, expects: 'typed-decisions' }], io.cwd, command);
  }
  return choice;
}

/** `--store PATH` (a SQLite file or a PostgreSQL URL), shared by every command that reads or keeps stored runs. */
const storeText = text(
  'PATH',
  'the run store: a SQLite file, or a PostgreSQL database\n(postgresql://user@host:port/db)',
  {
    defaultText:
      'DECIDEKIT_STORE, else $XDG_DATA_HOME/decidekit/runs.sqlite,\nelse ~/.local/share/decidekit/runs.sqlite',
    example: 'runs.sqlite',
  },
);

/** `--store PATH`; `-` is refused, as a store is a file that is read and written in place, never a stream. */
export const storeOption: typeof storeText = {
  ...storeText,
  parse: (raw, name) => {
    const value = storeText.parse(raw, name);
    if (value === '-')
      throw new UsageError(
        `--${name} - names no file: a run store is a file (a SQLite database read and written in place), never standard input or output; give its path, e.g. --${name} runs.sqlite (or --${name} ./- for a file named "-")`,
      );
    return value;
  },
};

/**
 * An output option (`--out`, `--html`, `--record`, `--bundle`) that refuses `-`: no output of
 * decidekit is a stream on `-` (a command that prints does so when the option is left out),
 * so `-` would only make a file or folder named "-". `what` is what the option names.
 */
export function outputPathOption<T extends string | undefined>(option: Option<T>, what: 'file' | 'folder'): Option<T> {
  return {
    ...option,
    parse: (raw, name) => {
      const value = option.parse(raw, name);
      if (value === '-')
        throw new UsageError(
          `--${name} -: '-' is not standard output here: give a ${what} name, e.g. --${name} ${exampleOf(option, name, what)} (or --${name} ./- for a ${what} named "-")`,
        );
      return value;
    },
  };
}

/** A name the option takes, for the refusal of `-` (an option's own example, when it has one). */
function exampleOf(option: Option<unknown>, name: string, what: 'file' | 'folder'): string {
  if (option.example !== 'x') return option.example;
  if (what === 'folder') return 'reports';
  return name === 'record' ? 'live-record.jsonl' : 'report.html';
}

/** `--store PATH` and `--no-store` of the commands that keep what they did (`noun`: run, audit…). */
export function keptInStoreOptions(noun: string) {
  return { store: storeOption, 'no-store': { ...flag(`do not keep the ${noun}`), conflictsWith: ['store'] } };
}

/** The store a keeping command writes to, or null with `--no-store`. */
export function keptStorePathOf(values: { store: string | undefined; 'no-store': boolean }, io: CliIo): string | null {
  return values['no-store'] ? null : storePathOf(values.store, io);
}
