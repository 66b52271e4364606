import { COMMANDS } from '../commands/index.js';

/** Every flag some command or subcommand declares (`--out`, `--no-store`), each command loaded once. */
export async function declaredFlags(): Promise<Set<string>> {
  const flags = new Set<string>();
  for (const entry of Object.values(COMMANDS)) {
    const command = await entry.load();
    for (const c of (await command.loadSubcommands?.()) ?? [command])
      for (const name of Object.keys(c.options ?? {})) flags.add(`--${name}`);
  }
  return flags;
}
