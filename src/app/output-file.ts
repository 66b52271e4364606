/**
 * The one rule for every output path (`--out`, `--html`, `--record`; the library's `outDir`,
 * `htmlPath`, `recordPath`), checked before the work starts so a long command never ends in
 * a write error that could have been seen at its start:
 *
 * - a path that is a folder, or ends in `/`, names a folder: the command's own file name
 *   goes in it (`<run>.md`, `score.html`); a folder option (`bench --out DIR`) always names one;
 * - folders that do not exist yet are made when the file is written (never under /proc, /sys
 *   or /dev), so a command refused after the check leaves no empty folder; the check asks only
 *   that the nearest existing folder takes a new file;
 * - only a regular file is ever replaced: a symbolic link, FIFO, socket or device at the
 *   path is refused, and left as it was;
 * - an output never replaces what the command reads: the same file as an input or the run
 *   store (by device and inode when both exist, by resolved path otherwise) is refused, and
 *   so is the file a folder output would get by its own name;
 * - the folder must take a new file (tried with a temporary file, removed at once).
 *
 * Files are written under a temporary name beside the output (`.partial-PID-…`) and renamed
 * into place when complete; the temporary files of a process that was killed outright are
 * removed by the next write into the same folder.
 */
import { existsSync, lstatSync, readdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { OptionError } from '../core/errors.js';
import { fileErrorWords } from '../core/file-error-words.js';
import {
  optionMention as option,
  words,
  type CallOption,
  type OptionMention,
  type WordValue,
} from '../core/message-words.js';
import { newFileRefusal, notFileWords, refuseKernelFolder } from '../datasets/folders.js';

/** Where an output goes once its path is checked: a folder, and the file's name when the path gave one. */
export interface OutputPlace {
  /** The folder the file goes into (made by the writer when it is missing). */
  readonly folder: string;
  /** The file's name as given; null when the path named a folder (the command's own name goes in). */
  readonly name: string | null;
  /** How the path was given, so the file a folder gets by the command's own name is checked as the path was. */
  readonly given?: GivenOutput;
}

/** A file the command reads (an input, the run store), which no output may replace. */
export interface ReadFile {
  /** The option that names it: a call option, or as the caller spells it (a flag of the command line). */
  readonly named: OptionMention | string;
  /** As given (resolved against the output's `cwd`). */
  readonly path: string;
}

/** An output path as given, with what it must not replace. */
interface GivenOutput {
  readonly option: CallOption;
  readonly path: string;
  readonly cwd: string;
  readonly inputs: readonly ReadFile[];
}

/**
 * The file an output at `place` is written to: its own name, else the command's `name` in the
 * folder. That file is checked by the one rule when the path named a folder (a symbolic link
 * there, or a file the command reads, is refused with an OptionError): call it before the work.
 */
export function outputFileOf(place: OutputPlace, name: string): string {
  const file = join(place.folder, place.name ?? name);
  if (place.name === null && place.given !== undefined) refuseOutputFile(file, place.given, true);
  return file;
}

/**
 * Refuses an output `file` that is not a regular file or nothing yet, or that is the same file
 * as one the command reads; `inFolder` when the path given named its folder (the message then
 * names the file).
 */
function refuseOutputFile(file: string, given: GivenOutput, inFolder: boolean): void {
  const fail = (why: WordValue): never => {
    throw new OptionError(
      given.option,
      words`${option(given.option)} ${given.path}: ${inFolder ? `${file} is ` : ''}${why}`,
    );
  };
  let found: Stats | null = null;
  try {
    found = lstatSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    // Cannot be looked at: the write says why.
  }
  const what = nonRegularWords(found);
  if (what !== null) fail(refusedOutputWords(what));
  const input = given.inputs.find((read) => isSameFile(file, resolve(given.cwd, read.path)));
  if (input !== undefined)
    fail(
      words`${inFolder ? '' : 'is '}the same file as ${input.named} ${input.path}, which the command reads (an output never replaces an input; give another path)`,
    );
}

/** Whether two paths name one file: by device and inode when both exist, by resolved path otherwise. */
function isSameFile(a: string, b: string): boolean {
  const statOf = (path: string): Stats | null => {
    try {
      return statSync(path, { throwIfNoEntry: false }) ?? null;
    } catch {
      return null;
    }
  };
  const [x, y] = [statOf(a), statOf(b)];
  if (x !== null && y !== null) return x.dev === y.dev && x.ino === y.ino;
  return resolve(a) === resolve(b);
}

/** The longest name of one file or folder most file systems take, in bytes. */
const MAX_NAME_BYTES = 255;

/** How `prepareOutputPath` reads a path, and what the output must not replace. */
export interface OutputPathOptions {
  /** What a relative path is resolved against (default the process's folder). */
  readonly cwd?: string;
  /** The option always names a folder (`outDir`). */
  readonly folderOnly?: boolean;
  /** The files the command reads: an output that is one of them is refused. */
  readonly inputs?: readonly ReadFile[];
  /** The command's own file name, checked now when the path names a folder (else by `outputFileOf`). */
  readonly fileName?: string;
}

/**
 * Checks the output path `path` of `outputOption` before the work, and that its missing
 * folders could be made (see the rule above; the writer makes them); `folderOnly` when the option always names a folder. Throws an
 * OptionError naming the option and the path, in words, when the output could never be written.
 */
export async function prepareOutputPath(
  path: string,
  outputOption: CallOption,
  { cwd = '.', folderOnly = false, inputs = [], fileName }: OutputPathOptions = {},
): Promise<OutputPlace> {
  const absolute = resolve(cwd, path);
  const fail = (why: string): never => {
    throw new OptionError(outputOption, words`${option(outputOption)} ${path}: ${why}`);
  };
  refuseKernelFolder(absolute, outputOption);
  if (absolute.split(sep).some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES))
    fail(`a name in the path is longer than ${MAX_NAME_BYTES} bytes, the most a file system takes`);
  const found = statOrNull(absolute, statSync, fail);
  const namesFolder = folderOnly || /[\\/]$/.test(path) || found?.isDirectory() === true;
  if (namesFolder && found !== null && !found.isDirectory())
    fail(
      `is ${nonRegularWords(found) ?? 'a file'}, not a folder (give a folder${folderOnly ? ' for the reports' : ''})`,
    );
  const given: GivenOutput = { option: outputOption, path, cwd, inputs };
  if (!namesFolder) {
    statOrNull(absolute, lstatSync, fail);
    refuseOutputFile(absolute, given, false);
  } else if (found === null && lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
    fail('is a link to nothing (a dangling symbolic link)');
  }
  const place: OutputPlace = namesFolder
    ? { folder: absolute, name: null, given }
    : { folder: dirname(absolute), name: basename(absolute) };
  if (fileName !== undefined) outputFileOf(place, fileName);
  refuseUnmakeableFolder(place.folder, namesFolder, fail);
  return place;
}

/**
 * Refuses a `folder` that does not take a new file, or that is missing and could not be made:
 * its nearest existing folder must take one. Nothing is made here (a refused command leaves
 * no empty folder): the writer makes the missing folders when the file is written.
 */
function refuseUnmakeableFolder(folder: string, namesFolder: boolean, fail: (why: string) => never): void {
  const existing = nearestExistingFolder(folder);
  const refusal = newFileRefusal(existing, partialNameOf(''));
  if (refusal === null) return;
  if (existing === folder) fail(`cannot write into the folder ${folder} (${fileErrorWords(refusal)})`);
  fail(
    `${namesFolder ? '' : `its folder ${folder} `}cannot be created: the folder ${existing} takes no new file (${fileErrorWords(refusal)})`,
  );
}

/** `path` itself when it exists, else its nearest existing parent. */
function nearestExistingFolder(path: string): string {
  let p = path;
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

/** A file's stat, null when there is nothing at `path`; other failures are `fail`'s, in words. */
function statOrNull(path: string, look: typeof statSync, fail: (why: string) => never): Stats | null {
  try {
    return look(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    return fail(code === 'ENOTDIR' ? fileErrorWords(err) : `cannot be looked at (${fileErrorWords(err)})`);
  }
}

/**
 * What is at an output path when it is not a file that may be replaced (nothing yet, or a
 * regular file): a symbolic link, a FIFO, a socket, a device, a folder, in words; else null.
 */
export function nonRegularOutputWords(path: string): string | null {
  try {
    return nonRegularWords(lstatSync(path, { throwIfNoEntry: false }) ?? null);
  } catch {
    // Cannot be looked at (under a file): the write says why.
    return null;
  }
}

function nonRegularWords(entry: Stats | null): string | null {
  if (entry === null || entry.isFile()) return null;
  return notFileWords(entry) ?? 'something other than a file';
}

/** Why an output path that is not a regular file is refused, in words (for the message). */
export function refusedOutputWords(what: string): string {
  return `${what}, not a regular file: it is never replaced; give the path of a file`;
}

/** What starts the temporary name of an output file: `.partial-<pid>-<random>-<name>`. */
const PARTIAL_PREFIX = '.partial-';
const PARTIAL_NAME = /^\.partial-(\d+)-[0-9a-f]{8}-/;

/** A temporary name for the output file `name`, marked with this process's id, at most 255 bytes. */
export function partialNameOf(name: string): string {
  const full = `${PARTIAL_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}-${name}`;
  return truncateToBytes(full, MAX_NAME_BYTES);
}

function truncateToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let out = '';
  for (const char of text) {
    if (Buffer.byteLength(out + char) > bytes) break;
    out += char;
  }
  return out;
}

/**
 * Removes the temporary files for the output `path` left by processes that are gone (killed
 * outright, so nothing of theirs could remove them); a live process's are left alone.
 */
export function removeStalePartialFiles(path: string, isAlive: (pid: number) => boolean = isProcessAlive): void {
  const folder = dirname(path);
  const name = basename(path);
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return;
  }
  for (const entry of entries) {
    const match = PARTIAL_NAME.exec(entry);
    if (match === null) continue;
    const rest = entry.slice(match[0].length);
    // The name may have been cut to fit 255 bytes: its start is enough to know it. A
    // nameless one is the check that the folder takes a new file.
    if (!name.startsWith(rest)) continue;
    if (Number(match[1]) === process.pid || isAlive(Number(match[1]))) continue;
    const stale = join(folder, entry);
    try {
      if (lstatSync(stale).isFile()) rmSync(stale, { force: true });
    } catch {
      // Gone meanwhile, or not ours to remove: the write goes on.
    }
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    // Signal 0 sends nothing: it only asks whether the process exists.
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
