/**
 * The package as a library user gets it: `npm pack` of this repository, unpacked into a
 * fresh project whose only other packages are decidekit's runtime dependencies (linked from
 * this checkout's node_modules, so nothing is downloaded) and `@types/node`. The README's
 * library example is compiled there with `tsc` (strict, `skipLibCheck: false`, NodeNext),
 * together with an import of every entry of `exports`, and then run against the embedded
 * reference server.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempFolderRemovedAfterAll } from '../src/datasets/test-support/temp-folders.js';
import { openStore } from '../src/store/open-store.js';
import { scoreResultsFiles } from '../src/app/offline/score-files.js';

const ROOT = join(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly files: readonly string[];
  readonly exports: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  readonly dependencies: Readonly<Record<string, string>>;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The first `ts` block of the README's "Library use" section: the example users copy. */
function readmeLibraryExample(): string {
  const section = readme.slice(readme.indexOf('\n## Library use\n'));
  const block = /```ts\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf('\n## ', 1)));
  if (block === null) throw new Error('README.md: no ts block under "## Library use"');
  return block[1]!;
}

describe('the packed library', () => {
  const dir = tempFolderRemovedAfterAll('decidekit-package-');
  const project = join(dir, 'project');
  const installed = join(project, 'node_modules', 'decidekit');
  const runTemp = join(dir, 'tmp');
  let packed: { readonly filename: string; readonly files: readonly { readonly path: string }[] };

  beforeAll(() => {
    // The suite's global setup built dist/ just now; packing must not build it again.
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    packed = (JSON.parse(out) as (typeof packed)[])[0]!;
    mkdirSync(installed, { recursive: true });
    mkdirSync(join(project, 'node_modules', '@types'));
    mkdirSync(runTemp);
    execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', installed, '--strip-components=1']);
    for (const name of [...Object.keys(pkg.dependencies), '@types/node'])
      symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh', private: true, type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          types: ['node'],
          outDir: 'out',
        },
        include: ['*.ts'],
      }),
    );
  }, 60_000);

  it('holds every file package.json lists, and what the example reads', () => {
    const paths = packed.files.map((f) => f.path);
    for (const entry of pkg.files.filter((f) => !f.startsWith('!')))
      expect(existsSync(join(ROOT, entry)), `package.json "files" lists ${entry}`).toBe(true);
    for (const target of Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))))
      expect(paths).toContain(target.replace(/^\.\//, ''));
    const example = readmeLibraryExample();
    for (const [, file] of example.matchAll(/'(data\/[^']+)'/g)) expect(paths).toContain(file);
    expect(paths).toContain('dist/cli/main.js');
    expect(paths.filter((p) => p.endsWith('.test.js') || p.includes('test-support'))).toEqual([]);
  });

  it('compiles the README example and every entry in a strict fresh project, without the SQLite binding types', () => {
    writeFileSync(join(project, 'example.ts'), readmeLibraryExample());
    const entries = Object.keys(pkg.exports).filter((k) => k !== './package.json');
    writeFileSync(
      join(project, 'entries.ts'),
      entries.map((k, i) => `import * as e${i} from '${join(pkg.name, k)}';\nconsole.log(typeof e${i});\n`).join(''),
    );
    expect(existsSync(join(project, 'node_modules', '@types', 'better-sqlite3'))).toBe(false);
    let output = '';
    try {
      execFileSync(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8' });
    } catch (err) {
      output = String((err as { stdout?: unknown }).stdout);
    }
    expect(output).toBe('');
    expect(readdirSync(join(project, 'out')).sort()).toEqual(['entries.js', 'example.js']);
  });

  it('runs the README example against the embedded server: a stored run and a scored file', async () => {
    const stdout = execFileSync(process.execPath, [join(project, 'out', 'example.js')], {
      cwd: installed,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, TMPDIR: runTemp },
    });
    const lines = stdout.trim().split('\n');
    const ran = /^run (\S+): accuracy (\S+)$/.exec(lines[0]!);
    expect(ran, stdout).not.toBeNull();
    const [storeFolder] = readdirSync(runTemp);
    const store = openStore(join(runTemp, storeFolder!, 'runs.sqlite'), { readOnly: true });
    try {
      const run = store.runs.get(ran![1]!)!;
      expect(run.config.caseIds).toHaveLength(20);
      expect(run.config.embeddedServer).toEqual({ model: 'heuristic' });
      expect(Number(ran![2])).toBe(run.summary.accuracy);
      expect(lines.at(-1)).toBe(`stored ${run.id} (complete)`);
    } finally {
      store.close();
    }
    const { scored } = await scoreResultsFiles(join(ROOT, 'data/moderation/dataset.jsonl'), [
      join(ROOT, 'data/moderation/results-careful-1.jsonl'),
    ]);
    const m = scored[0]!;
    expect(lines.slice(1, -1)).toEqual([`${m.model}: accuracy ${m.summary.accuracy}, ECE ${m.summary.ece}`]);
  });

  it("finds the CLI's file with the README's CI line, in a dependent project and in the clone", () => {
    const line = /^DECIDEKIT_CLI=\$\(node -p "(.+)"\)$/m.exec(readme);
    expect(line).not.toBeNull();
    for (const cwd of [project, ROOT]) {
      const file = execFileSync(process.execPath, ['-p', line![1]!], { cwd, encoding: 'utf8' }).trim();
      expect(file).toBe(join(cwd === ROOT ? ROOT : installed, 'dist', 'cli', 'main.js'));
      expect(execFileSync(process.execPath, [file, '--version'], { encoding: 'utf8' }).trim()).toContain(pkg.version);
    }
  });
});
