/**
 * The library speaks library: outside `src/cli` no source line names a command-line flag.
 * A library message names the option of the call (`outDir`), and the CLI spells it as the
 * flag that sets it (`--out`, `src/cli/option-flags.ts`). The one exception is
 * `src/core/command-hints.ts`, the commands and flag words that hints and reports print for a
 * person to paste; every flag it names must be one that a command declares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredFlags } from '../src/cli/test-support/declared-flags.js';
import { flagLines, flagsInLine, isTestCode } from './support/flags-in-source.js';

const ROOT = join(import.meta.dirname, '..');
const HINTS = 'src/core/command-hints.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

/** `file:line: --flag` for every line outside `src/cli` and the hints module that names a flag. */
function breaches(files: readonly string[], read: (file: string) => string): string[] {
  return files
    .filter((file) => !file.startsWith('src/cli/') && file !== HINTS)
    .flatMap((file) => {
      const text = read(file);
      if (isTestCode(file, text)) return [];
      return flagLines(text).map(({ line, flags }) => `${file}:${line}: ${flags.join(' ')}`);
    });
}

describe('command-line flags below src/cli', () => {
  it('are named by no source line outside src/cli and the hints module', () => {
    const files = sourceFiles(join(ROOT, 'src'));
    expect(files.length).toBeGreaterThan(100);
    expect(breaches(files, (file) => readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('are caught in a library line that names one, and not in comments, CSS or longer words', () => {
    const planted: Record<string, string> = {
      'src/app/bench/planted.ts': [
        '// a comment may say --out',
        ' * and so may a doc comment: --base-url',
        "const css = 'color: var(--ink); --rule: #ccc';",
        "const range = 'a--b and x-->y';",
        'throw new Error(`cannot write: ${path} (pass --out)`);',
        "const hint = 'set --no-store'; // and --json here is a comment",
      ].join('\n'),
      'src/core/planted.test.ts': "run(['bench', '--out', dir]);",
      'src/cli/planted.ts': "io.stderr.write('use --out');",
    };
    expect(breaches(Object.keys(planted), (file) => planted[file]!)).toEqual([
      'src/app/bench/planted.ts:5: --out',
      'src/app/bench/planted.ts:6: --no-store',
    ]);
    expect(flagsInLine('`--sample ${n} --seed ${s}`')).toEqual(['--sample', '--seed']);
  });

  it('are, in the hints module, flags that some command declares', async () => {
    const declared = new Set([...(await declaredFlags()), '--help', '--version']);
    const named = flagLines(readFileSync(join(ROOT, HINTS), 'utf8')).flatMap(({ flags }) => flags);
    expect(named.length).toBeGreaterThan(5);
    for (const flag of named) expect(declared, flag).toContain(flag);
  });
});
