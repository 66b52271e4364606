/**
 * `decidekit view --bundle DIR`: the viewer's pages as a static site that works from
 * file:// (a CI job uploads it): `index.html` (every record of the store), a page per run
 * asked for (every run when none is), per comparison asked for (`A,B`), per model of those
 * runs, and per audit and probe. Pages link to each other by relative file names; a page
 * the bundle does not hold is named without a link. A run's page holds its trace inline,
 * filtered in the page, as the run's HTML report does.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DecidekitError, OptionError } from '../../core/errors.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { bundleFileName, type ViewLinks } from '../../core/view/view-links.js';
import { analyzeRun } from '../bench/run-analysis.js';
import { listStore, openStoredRun } from '../runs/stored-runs.js';
import { nonRegularOutputWords, prepareOutputPath } from '../output-file.js';
import { writeTextFile } from '../write-text-file.js';
import { HtmlTraceRows, renderBenchHtmlPage } from '../../reports/bench/bench-html.js';
import { modelOfHead } from '../../reports/view/view-index.js';
import { renderViewNav } from '../../reports/view/view-nav.js';
import { viewIndexPage } from './view-index-page.js';
import { viewComparePage } from './view-compare-page.js';
import { viewModelPage } from './view-model-page.js';
import { viewAuditPage, viewProbePage } from './view-record-pages.js';
import { openStore } from '../../store/open-store.js';

export interface BundleOptions {
  readonly storePath: string;
  readonly dir: string;
  readonly cwd: string;
  /** Runs (ids or prefixes) and comparisons (`A,B[,C…]`); empty: every run, no comparison. */
  readonly asked: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface WrittenBundle {
  readonly dir: string;
  readonly index: string;
  readonly runs: number;
  readonly comparisons: number;
  readonly files: number;
}

/** The small file that marks a folder as a bundle this command wrote, so the next one may replace it. */
export const BUNDLE_MARK = '.decidekit-view-bundle';

/**
 * Checks `folder` before a new bundle is made there, and returns the pages of a previous
 * bundle that the new one replaces: an empty folder is taken as it is; a previous bundle (it
 * holds the mark) loses its pages, so none of them outlives the new one, and only regular
 * files are ever removed or replaced (a link, FIFO, socket or device among them is refused,
 * as every output path is); any other folder with files in it is refused, and left as it was.
 */
function checkBundleFolder(folder: string, given: string): string[] {
  const fail = (why: string): never => {
    throw new OptionError('bundleDir', words`${option('bundleDir')} ${given}: ${why}`);
  };
  let entries: string[] = [];
  try {
    entries = readdirSync(folder);
  } catch (err) {
    // A new folder is made when the first page is written.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    fail(`cannot be read (${fileErrorWords(err)})`);
  }
  if (entries.length === 0) return [];
  if (!entries.includes(BUNDLE_MARK))
    fail(
      `is not empty and holds no previous bundle (${entries.length} entries, such as ${entries.slice(0, 3).join(', ')}); give an empty or new folder`,
    );
  const pages = entries.filter((e) => e.endsWith('.html'));
  for (const name of [BUNDLE_MARK, ...pages]) {
    const what = nonRegularOutputWords(join(folder, name));
    if (what !== null)
      fail(
        `${join(folder, name)} is ${what}, not a regular file: a bundle replaces only the files it wrote (remove it, or give an empty or new folder)`,
      );
  }
  return pages;
}

/** Removes the pages of a previous bundle (checked by `checkBundleFolder`), so none outlives the new one. */
function clearBundleFolder(folder: string, given: string, pages: readonly string[]): void {
  for (const name of pages)
    try {
      if (nonRegularOutputWords(join(folder, name)) === null) rmSync(join(folder, name), { force: true });
    } catch (err) {
      throw new OptionError(
        'bundleDir',
        words`${option('bundleDir')} ${given}: the old page ${name} cannot be removed (${fileErrorWords(err)})`,
      );
    }
}

/** Full run ids of the prefixes given, each checked against the store. */
function resolveRuns(storePath: string, prefixes: readonly string[]): string[] {
  const store = openStore(storePath, { mustExist: true, readOnly: true });
  try {
    return prefixes.map((p) => store.resolveId(p, 'run', { command: 'view' }));
  } finally {
    store.close();
  }
}

function bundleLinks(
  runs: ReadonlySet<string>,
  comparisons: readonly (readonly string[])[],
  models: ReadonlySet<string>,
): ViewLinks {
  const written = new Set(comparisons.map((ids) => ids.join(',')));
  return {
    index: 'index.html',
    run: (id) => (runs.has(id) ? bundleFileName('run', id) : null),
    compare: (ids) => (written.has(ids.join(',')) ? bundleFileName('compare', ids.join('_vs_')) : null),
    model: (name) => (models.has(name) ? bundleFileName('model', name) : null),
    audit: (id) => bundleFileName('audit', id),
    probe: (id) => bundleFileName('probe', id),
  };
}

/** A run's page with its trace inline (its first cases, filtered in the page), read in one pass. */
function runPage(storePath: string, id: string, links: ViewLinks): string {
  const opened = openStoredRun(storePath, id, { command: 'view' });
  const trace = new HtmlTraceRows();
  const { run, statistics } = analyzeRun(
    opened.run,
    {},
    { intervals: true, stored: opened.stored, listings: true, visit: (c) => trace.add(c) },
  );
  return renderBenchHtmlPage(run, { statistics, nav: renderViewNav(links, `Run ${id}`, storePath) }, trace);
}

/** Writes the bundle; every name asked for is checked before the first file is written. */
export async function writeViewBundle(options: BundleOptions): Promise<WrittenBundle> {
  const { storePath } = options;
  const place = await prepareOutputPath(options.dir, 'bundleDir', {
    cwd: options.cwd,
    folderOnly: true,
    inputs: [{ named: { option: 'storePath' }, path: storePath }],
  });
  const oldPages = checkBundleFolder(place.folder, options.dir);
  const store = listStore(storePath);
  if (
    store.missingFolder !== null ||
    (store.runs.length === 0 && store.audits.length === 0 && store.probes.length === 0)
  )
    throw new DecidekitError(
      'invalid_input',
      `the store ${storePath} holds nothing to bundle yet (a bench run makes the first)`,
    );
  const singles = options.asked.filter((a) => !a.includes(','));
  const pairs = options.asked
    .filter((a) => a.includes(','))
    .map((a) =>
      resolveRuns(
        storePath,
        a
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x !== ''),
      ),
    );
  const runIds = new Set(
    singles.length === 0 && pairs.length === 0
      ? store.runs.map((h) => h.id)
      : [...resolveRuns(storePath, singles), ...pairs.flat()],
  );
  const models = new Set(store.runs.filter((h) => runIds.has(h.id)).map(modelOfHead));
  const links = bundleLinks(runIds, pairs, models);
  const pages: [string, () => string | Promise<string>][] = [
    ['index.html', () => viewIndexPage(storePath, new URLSearchParams(), links, { live: false, comparisons: pairs })],
    ...[...runIds].map((id): [string, () => string] => [links.run(id)!, () => runPage(storePath, id, links)]),
    ...pairs.map((ids): [string, () => Promise<string>] => [
      links.compare(ids)!,
      () =>
        viewComparePage(storePath, new URLSearchParams({ runs: ids.join(',') }), links, options.env, { bundle: true }),
    ]),
    ...[...models].map((m): [string, () => string] => [links.model(m)!, () => viewModelPage(storePath, m, links)]),
    ...store.audits.map((a): [string, () => string] => [
      links.audit(a.id)!,
      () => viewAuditPage(storePath, a.id, links),
    ]),
    ...store.probes.map((p): [string, () => string] => [
      links.probe(p.id)!,
      () => viewProbePage(storePath, p.id, links),
    ]),
  ];
  clearBundleFolder(place.folder, options.dir, oldPages);
  await writeTextFile(
    join(place.folder, BUNDLE_MARK),
    'decidekit view wrote this folder as a bundle of its pages\n',
    'a bundle mark',
  );
  for (const [name, render] of pages) await writeTextFile(join(place.folder, name), await render(), 'a bundle page');
  return {
    dir: place.folder,
    index: join(place.folder, 'index.html'),
    runs: runIds.size,
    comparisons: pairs.length,
    files: pages.length,
  };
}
