/**
 * Every repository path the Markdown pages name exists: a page that points a reader at
 * `src/store/run-claim.ts` or `test/e2e/bench/` must not send them to a file that moved.
 * Checked: the spans in backticks and the link targets of every tracked page (README.md,
 * ARCHITECTURE.md, BENCHMARKS.md, docs/, the READMEs under src), and the repository paths in
 * their code blocks (the commands a reader pastes).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path !== '');

/** A path the pages may name: a tracked file, a folder holding one, or a folder `.gitignore` keeps out. */
function knownPaths(files: readonly string[], ignoredFolders: readonly string[]): Set<string> {
  const known = new Set<string>(ignoredFolders);
  for (const file of files) {
    known.add(file);
    for (let cut = file.lastIndexOf('/'); cut > 0; cut = file.lastIndexOf('/', cut - 1)) known.add(file.slice(0, cut));
  }
  return known;
}

/** The folders `.gitignore` names (`dist/`, `/test/.out/`), written as repository paths. */
function ignoredFoldersOf(gitignore: string): string[] {
  return gitignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.endsWith('/') && !line.startsWith('#') && !line.includes('*'))
    .map((line) => line.replace(/^\//, '').replace(/\/$/, ''));
}

/** A name a page uses for a path where it stands, as written (`src/x.ts`, `core/x.ts`, `x.ts`, `../y.md`). */
interface NamedPath {
  readonly name: string;
  readonly line: number;
  /** A link target resolves from the page's folder; the rest from the root (or from `src/`). */
  readonly kind: 'code' | 'link';
}

const SOURCE_FILE = /^[\w.-]+\.(ts|mjs|js)$/;

/** The paths a Markdown text names: spans in backticks, link targets, repository paths in code blocks. */
function pathsNamedIn(markdown: string, topLevel: ReadonlySet<string>): NamedPath[] {
  const named: NamedPath[] = [];
  let inBlock = false;
  markdown.split('\n').forEach((text, index) => {
    const line = index + 1;
    if (/^\s*```/.test(text)) {
      inBlock = !inBlock;
      return;
    }
    if (inBlock) {
      for (const word of text.split(/[\s'"=(),]+/)) {
        const path = word.replace(/[.:;]+$/, '');
        if (path.includes('/') && topLevel.has(path.split('/')[0]!) && /^[\w./-]+$/.test(path))
          named.push({ name: path, line, kind: 'code' });
      }
      return;
    }
    for (const m of text.matchAll(/`([^`]+)`/g)) {
      const span = m[1]!;
      if (!/^[\w./<>*-]+$/.test(span) || span.startsWith('/')) continue;
      const first = span.split('/')[0]!;
      if ((span.includes('/') && topLevel.has(first)) || (!span.includes('/') && SOURCE_FILE.test(span)))
        named.push({ name: span, line, kind: 'code' });
    }
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.replace(/#.*$/, '');
      if (target === '' || /^[a-z]+:/.test(target)) continue;
      named.push({ name: target, line, kind: 'link' });
    }
  });
  return named;
}

/**
 * Whether a named path exists. A placeholder (`test/e2e/<room>/`, `src/**\/test-support/`)
 * is checked up to its first placeholder; a path under a layer (`core/x.ts`) may leave out
 * `src/`; a source file imported as `.js` may be named so; a bare file name (`x.ts`) exists
 * somewhere in the repository.
 */
function pathExists(path: NamedPath, page: string, known: ReadonlySet<string>, baseNames: ReadonlySet<string>): boolean {
  const fixed = path.name.split('/');
  const wild = fixed.findIndex((part) => /[<>*]/.test(part));
  const name = (wild === -1 ? fixed : fixed.slice(0, wild)).join('/').replace(/\/$/, '');
  if (name === '') return true;
  if (path.kind === 'link') return known.has(normalize(join(dirname(page), name)));
  if (!path.name.includes('/')) return baseNames.has(name) || baseNames.has(name.replace(/\.js$/, '.ts'));
  return [name, `src/${name}`].some((candidate) => known.has(candidate) || known.has(candidate.replace(/\.js$/, '.ts')));
}

const pages = tracked.filter((file) => file.endsWith('.md') && !file.includes('__snapshots__'));
const known = knownPaths(tracked, ignoredFoldersOf(readFileSync(join(ROOT, '.gitignore'), 'utf8')));
const baseNames = new Set(tracked.map((file) => file.slice(file.lastIndexOf('/') + 1)));
/** What a path in a page may start with: a top-level entry of the repository, or a folder under src. */
const topLevel = new Set([...known].filter((path) => /^(src\/)?[^/]+$/.test(path)).map((path) => path.replace(/^src\//, '')));

function missingIn(page: string, markdown: string): string[] {
  return pathsNamedIn(markdown, topLevel)
    .filter((path) => !pathExists(path, page, known, baseNames))
    .map((path) => `${page}:${path.line} ${path.name}`);
}

describe('the repository paths the pages name', () => {
  it('exist, in every tracked Markdown page', () => {
    expect(pages).toContain('ARCHITECTURE.md');
    expect(pages.flatMap((page) => missingIn(page, readFileSync(join(ROOT, page), 'utf8')))).toEqual([]);
  });

  it('include spans, links and code-block paths, and a missing one of each is found', () => {
    const page = [
      'See `src/store/run-claim.ts`, `core/no-such-file.ts`, `gone.ts` and [the formats](file-formats.md).',
      '[nowhere](no-such-page.md) and `LocalLLaMA/typed-decisions` (a dataset, not a path) and `n/a`.',
      '```',
      'decidekit score --dataset data/moderation/dataset.jsonl --results data/moderation/nope.jsonl',
      '```',
      'Placeholders: `test/e2e/<room>/` and `src/**/test-support/`.',
    ].join('\n');
    expect(missingIn('docs/example.md', page)).toEqual([
      'docs/example.md:1 core/no-such-file.ts',
      'docs/example.md:1 gone.ts',
      'docs/example.md:2 no-such-page.md',
      'docs/example.md:4 data/moderation/nope.jsonl',
    ]);
  });
});
