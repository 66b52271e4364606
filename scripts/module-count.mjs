// How many modules each command loads: runs the built CLI (`npm run build` first) on the
// bundled data with the embedded server and no user store, with module hooks that log every
// module as it loads (scripts/module-count/hooks.mjs), and counts decidekit's own modules
// (dist/), package modules and Node built-ins. It also names the modules of the benchmark's
// machinery that other commands should not need: the bench runner (dist/runner/), the store's
// case writer (dist/store/writer/) and the bench HTML page.
//
//   node scripts/module-count.mjs [--json] [COMMAND ...]   (default: every measured command)
//
// Each worker thread logs too (the hooks apply to it), so a command that starts the writer
// thread counts its modules once (the list is de-duplicated).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist', 'cli', 'main.js');
const register = join(import.meta.dirname, 'module-count', 'register.mjs');
const distUrl = `file://${join(root, 'dist')}/`;

/**
 * The commands measured, each with arguments that keep it small; the default store is a temp
 * folder's (XDG_DATA_HOME), never the user's.
 */
const COMMANDS = {
  audit: { args: ['audit'] },
  'audit --out': { args: ['audit', '--out', '{tmp}/out'] },
  'audit --no-store': { args: ['audit', '--no-store'] },
  probe: { args: ['probe', '--cases', '4'] },
  'probe --out': { args: ['probe', '--cases', '4', '--out', '{tmp}/out'] },
  'probe --no-store': { args: ['probe', '--no-store', '--cases', '4'] },
  // `live` runs until stopped: it is interrupted after its third probe line.
  live: { args: ['live', '--json', '--interval', '0.02'], interruptAfterLines: 3 },
  bench: { args: ['bench', '--limit', '5'] },
  'bench --out': { args: ['bench', '--limit', '5', '--out', '{tmp}/out'] },
  'bench --no-store': { args: ['bench', '--no-store', '--limit', '5'] },
  score: {
    args: [
      'score',
      '--dataset',
      'data/moderation/dataset.jsonl',
      '--results',
      'data/moderation/results-careful-1.jsonl',
    ],
  },
  'runs list': {
    args: ['runs', 'list', '--store', '{tmp}/runs.sqlite'],
    before: ['bench', '--store', '{tmp}/runs.sqlite', '--limit', '5'],
  },
  // The store's only run, by a prefix every run id has (ids start with the year).
  'runs report': {
    args: ['runs', 'report', '2', '--format', 'markdown', '--store', '{tmp}/runs.sqlite'],
    before: ['bench', '--store', '{tmp}/runs.sqlite', '--limit', '5'],
  },
  // Two runs of the store, by the ids `runs list --json` gives ({run0}, {run1}).
  'runs compare': {
    args: ['runs', 'compare', '{run1}', '{run0}', '--store', '{tmp}/runs.sqlite'],
    before: [
      ['bench', '--store', '{tmp}/runs.sqlite', '--limit', '5'],
      ['bench', '--store', '{tmp}/runs.sqlite', '--limit', '5', '--model', 'prior'],
    ],
  },
  'runs export': {
    args: ['runs', 'export', '2', '--format', 'jsonl', '--out', '{tmp}/out.jsonl', '--store', '{tmp}/runs.sqlite'],
    before: ['bench', '--store', '{tmp}/runs.sqlite', '--limit', '5'],
  },
};

/** What the rooms other than the benchmark must not load. */
const BENCH_MACHINERY = {
  runner: (path) => path.startsWith('runner/'),
  storeWriter: (path) => path.startsWith('store/writer/'),
  benchHtml: (path) => /(^|\/)bench-html\.js$/.test(path),
};

function runCli(args, { tmp, log, interruptAfterLines, runs = [] }) {
  const argv = args.map((a) =>
    runs.reduce((text, id, i) => text.replaceAll(`{run${i}}`, id), a.replaceAll('{tmp}', tmp)),
  );
  const execArgv = log === undefined ? [] : ['--import', register];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, cli, ...argv], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: tmp,
        XDG_DATA_HOME: join(tmp, 'data'),
        XDG_CACHE_HOME: join(tmp, 'cache'),
        NO_COLOR: '1',
        ...(log === undefined ? {} : { DECIDEKIT_MODULE_LOG: log }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (interruptAfterLines !== undefined && !interrupted && stdout.split('\n').length > interruptAfterLines) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const expected = interruptAfterLines === undefined ? [0] : [130];
      if (!expected.includes(code)) {
        reject(new Error(`decidekit ${argv.join(' ')} exited ${code}\n${stderr}`));
      } else resolve(stdout);
    });
  });
}

/** The modules `decidekit ARGS` loads, grouped; the command's output is dropped. */
export async function measure(name) {
  const command = COMMANDS[name];
  if (command === undefined) throw new Error(`unknown command ${name}: one of ${Object.keys(COMMANDS).join(', ')}`);
  const tmp = mkdtempSync(join(tmpdir(), 'decidekit-module-count-'));
  try {
    const befores =
      command.before === undefined ? [] : Array.isArray(command.before[0]) ? command.before : [command.before];
    for (const before of befores) await runCli(before, { tmp });
    const runs = command.args.some((a) => a.includes('{run'))
      ? JSON.parse(await runCli(['runs', 'list', '--json', '--store', join(tmp, 'runs.sqlite')], { tmp })).runs.map(
          (run) => run.id,
        )
      : [];
    const log = join(tmp, 'modules.log');
    await runCli(command.args, { tmp, log, interruptAfterLines: command.interruptAfterLines, runs });
    const urls = [
      ...new Set(
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== ''),
      ),
    ];
    const own = urls
      .filter((url) => url.startsWith(distUrl))
      .map((url) => fileURLToPath(url).slice(join(root, 'dist').length + 1))
      .sort();
    const packages = urls.filter((url) => url.includes('/node_modules/'));
    const builtins = urls.filter((url) => url.startsWith('node:'));
    // The PostgreSQL driver and the shard queue's library, by package name: only a command on
    // a PostgreSQL store, or one that uses the shard queue, has a use for them.
    const postgresPackages = [
      ...new Set(
        packages
          .map((url) => /\/node_modules\/([^/]+)\//.exec(url)?.[1])
          .filter((name) => name === 'pg' || name === 'pg-boss'),
      ),
    ].sort();
    // The PostgreSQL store's adapter (dist/store/postgres/): only a command on a PostgreSQL store needs it.
    const postgresAdapter = own.filter((path) => path.startsWith('store/postgres/'));
    const machinery = Object.fromEntries(
      Object.entries(BENCH_MACHINERY).map(([kind, test]) => [kind, own.filter(test)]),
    );
    return {
      command: name,
      own: own.length,
      packages: packages.length,
      builtins: builtins.length,
      machinery,
      postgresPackages,
      postgresAdapter,
      modules: own,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const names = args.filter((a) => a !== '--json');
  const results = [];
  for (const name of names.length === 0 ? Object.keys(COMMANDS) : names) results.push(await measure(name));
  if (json) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    process.stdout.write(
      'command             decidekit  package entries  node:  bench runner / store writer / bench HTML\n',
    );
    for (const r of results) {
      const m = r.machinery;
      const loaded = [...m.runner, ...m.storeWriter, ...m.benchHtml];
      process.stdout.write(
        `${r.command.padEnd(20)}${String(r.own).padStart(9)}${String(r.packages).padStart(17)}${String(r.builtins).padStart(7)}  ${loaded.length === 0 ? 'none' : loaded.join(', ')}\n`,
      );
    }
  }
}
