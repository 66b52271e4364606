/**
 * Hints name commands to run next (`decidekit runs show 20261201-…`). Started through `npx
 * decidekit` (or `npm exec decidekit`) in a clone or project where `decidekit` is not on the
 * PATH, such a hint would fail when pasted; there every `decidekit <command>` the CLI prints
 * on stdout or stderr reads `npx decidekit <command>` instead. Message prefixes
 * (`decidekit bench: note: …`) and the tool's name elsewhere are left as they are. Files
 * written by `--out` keep `decidekit`: they are read later, anywhere.
 */
import type { CliIo, TextSink } from './io.js';

/** `npx decidekit` when npm started this process for `npx decidekit …`, else `decidekit`. */
export function commandPrefixOf(env: CliIo['env']): string {
  const script = (env['npm_lifecycle_script'] ?? '').replace(/^'(.*)'$/, '$1');
  return env['npm_lifecycle_event'] === 'npx' && script === 'decidekit' ? 'npx decidekit' : 'decidekit';
}

/**
 * Rewrites `decidekit <command>` to `<prefix> <command>` in everything written through `io`,
 * for the given command names (and the `<command>` placeholder of the usage line). Not when
 * the command is a message prefix (`decidekit runs show: …`), nor after `npx ` already.
 */
export function withCommandPrefix(io: CliIo, prefix: string, commands: readonly string[]): CliIo {
  if (prefix === 'decidekit') return io;
  const names = [...commands, '<command>'].map((c) => c.replace(/[.*+?^${}()|[\]\\<>-]/g, '\\$&')).join('|');
  const hint = new RegExp(
    `(?<![\\w./@-]|npx )decidekit (?=(?:${names})(?![\\w-]))(?!(?:${names})(?: [a-z][a-z-]*)?:)`,
    'g',
  );
  // The sink's own isTTY and columns (live getters) are read through the prototype.
  const rewrite = (sink: TextSink): TextSink =>
    Object.create(sink, { write: { value: (text: string) => sink.write(text.replace(hint, `${prefix} `)) } });
  return { ...io, stdout: rewrite(io.stdout), stderr: rewrite(io.stderr) };
}
