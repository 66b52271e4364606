/**
 * An output file option (`--html FILE`, `--out FILE`) is checked before the work starts, by
 * the one rule of every output path (app/output-file.ts), so a path that can never be written
 * is a usage error naming the option at once, not a write error after the work is done.
 */
import { optionMention, type CallOption } from '../core/message-words.js';
import { outputFileOf, prepareOutputPath, type ReadFile } from '../app/output-file.js';

/**
 * The file an output option's `value` (resolved against `cwd`) is written to: the path itself,
 * or `name` inside it when it names a folder (made when missing); undefined when not given.
 * Throws an OptionError when the path could never be written, or is one of `inputs`, the
 * files the command reads.
 */
export async function outFileOf(
  option: CallOption,
  value: string | undefined,
  cwd: string,
  name: string,
  inputs: readonly ReadFile[] = [],
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  return outputFileOf(await prepareOutputPath(value, option, { cwd, inputs, fileName: name }), name);
}

/** The run store at `path`, as a file a command reads that no output may replace. */
export function storeRead(path: string): ReadFile {
  return { named: optionMention('storePath'), path };
}
