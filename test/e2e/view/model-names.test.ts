/**
 * `decidekit view`'s `/models/NAME` for a name that is no model's, or the start of several:
 * a page that says so and links the models meant or the close ones (404 when none is
 * meant); a name found without its marks, in any case or by its start shows the model.
 * The real CLI in process serving a real store on 127.0.0.1 (a bench run, and runs of two
 * more models stored through the store's port).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, type CliResult } from '../../../src/cli/test-support/in-process-cli.js';
import { Interruption } from '../../../src/cli/io.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';
import { openStore } from '../../../src/store/index.js';
import { seedFinished } from '../../../src/store/contract/contract-support.js';
import { runConfig } from '../../../src/store/test-support/run-fixtures.js';

const tmp = tempFolderRemovedAfterAll('dk-view-models-');
const store = join(tmp, 'view.sqlite');
let url = '';
const stop = new AbortController();
let served: Promise<CliResult>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const r = await runCliInProcess(['bench', '--limit', '4', '--model', 'heuristic', '--store', store], {
    env: { XDG_DATA_HOME: tmp },
  });
  expect(r.code, r.stderr).toBe(0);
  const s = openStore(store);
  try {
    ids['gpt-4o'] = seedFinished(s, runConfig({ model: 'gpt-4o' }), '2026-11-30T05:00:00.000Z').head.id;
    ids['gpt-4o-mini'] = seedFinished(s, runConfig({ model: 'gpt-4o-mini' }), '2026-11-30T06:00:00.000Z').head.id;
  } finally {
    s.close();
  }
  let started: () => void;
  const listening = new Promise<void>((resolve) => (started = resolve));
  served = runCliInProcess(['view', '--store', store, '--port', '0'], {
    env: { XDG_DATA_HOME: tmp },
    signal: stop.signal,
    onStdout: (text) => {
      if (text.includes('\n')) {
        url = text.split('\n')[0]!.replace(/\/$/, '');
        started();
      }
    },
  });
  await listening;
}, 120_000);

afterAll(async () => {
  stop.abort(new Interruption('SIGINT'));
  await served;
});

async function get(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${url}${path}`);
  return { status: res.status, body: await res.text() };
}

describe('decidekit view /models/NAME', () => {
  it('shows the model a name means in another case or by its start', async () => {
    for (const name of ['GPT-4O-MINI', 'gpt-4o-m', 'Heur']) {
      const page = await get(`/models/${encodeURIComponent(name)}`);
      expect(page.status, name).toBe(200);
      expect(page.body, name).not.toContain('id="model-choice"');
    }
    expect((await get('/models/gpt-4o-m')).body).toContain(ids['gpt-4o-mini']);
    expect((await get('/models/gpt-4o')).body).not.toContain(ids['gpt-4o-mini']);
  });

  it('names every model a name is the start of, linking each', async () => {
    const page = await get('/models/GPT');
    expect(page.status).toBe(200);
    expect(page.body).toContain('id="model-choice"');
    expect(page.body).toContain('“GPT” is the start of 2 models’ names');
    expect(page.body).toContain('<a href="/models/gpt-4o">gpt-4o</a>');
    expect(page.body).toContain('<a href="/models/gpt-4o-mini">gpt-4o-mini</a>');
    expect(page.body).not.toContain('<a href="/models/heuristic*">');
  });

  it('says no model has a name, with 404, and links the close ones, whose links work', async () => {
    const page = await get('/models/gtp-4o');
    expect(page.status).toBe(404);
    expect(page.body).toContain('The store holds no run of a model named “gtp-4o”');
    expect(page.body).toContain('Did you mean');
    const links = [...page.body.matchAll(/<a href="(\/models\/[^"]+)">/g)].map((m) => m[1]);
    expect(links).toEqual(['/models/gpt-4o', '/models/gpt-4o-mini']);
    for (const link of links) expect((await get(link!)).status).toBe(200);
  });

  it('lists the store’s models when no name is close', async () => {
    const page = await get('/models/llama-3');
    expect(page.status).toBe(404);
    expect(page.body).toContain('The store holds no run of a model named “llama-3”');
    expect(page.body).not.toContain('Did you mean');
    expect(page.body).toContain('<a href="/models/heuristic*">heuristic*</a>');
    expect(page.body).toContain('<a href="/models/gpt-4o">gpt-4o</a>');
  });
});
