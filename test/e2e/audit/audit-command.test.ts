/**
 * End to end: `decidekit audit` through the real CLI function `runCli(argv, io)` in process,
 * the real reference server on loopback, real SQLite files. Expected counts come from the
 * library's own summary of the same files, not from earlier output.
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderAuditSample, writeAuditSample } from '../../../scripts/make-audit-sample.js';
import { runCliInProcess } from '../../../src/cli/test-support/in-process-cli.js';
import { startReferenceServer } from '../../../src/protocol/server/server.js';
import { openStore } from '../../../src/store/index.js';
import { renderAuditRunsList } from '../../../src/reports/runs/audit-runs-list.js';
import { nonSnakeKeys } from '../../../src/reports/test-support/json-keys.js';
import { CLAIM_CHECK, writeAuditFiles } from '../../../src/app/audit/test-support/audit-files.js';
import { tempFolderRemovedAfterAll } from '../../../src/datasets/test-support/temp-folders.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const tmp = tempFolderRemovedAfterAll('decidekit-e2e-audit-');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

/** `abortOn`: Ctrl+C as soon as stderr shows this text. */
async function cli(argv: string[], env: Record<string, string> = {}, abortOn?: string) {
  const controller = new AbortController();
  return runCliInProcess(['audit', ...argv], {
    env: { XDG_DATA_HOME: join(tmp, 'xdg'), ...env },
    cwd: ROOT,
    signal: controller.signal,
    onStderr: (text) => {
      if (abortOn !== undefined && text.includes(abortOn)) controller.abort();
    },
  });
}

function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(text).not.toContain('internal error');
}

describe('decidekit audit on the bundled sample', () => {
  it('prints the audit table, disagreements first, with agreement per check and the two limits', async () => {
    const r = await cli(['--no-store']);
    expect(r.code).toBe(0);
    const table = r.stdout.split('\n');
    const rows = table.filter((l) => /^T-\d{3}\s/.test(l));
    const statuses = rows.map((l) => l.split(/\s{2,}/)[2]!);
    const firstAgree = statuses.findIndex((s) => s === 'agrees');
    expect(statuses.slice(0, statuses.indexOf('abstained (unclear)')).every((s) => s === 'disagrees')).toBe(true);
    expect(statuses.slice(firstAgree).every((s) => s === 'agrees')).toBe(true);
    expect(new Set(statuses)).toEqual(
      new Set(['disagrees', 'abstained (unclear)', 'abstained (tie)', 'unavailable', 'agrees']),
    );
    expect(r.stdout).toContain("Cohen's kappa [95%]");
    expect(r.stdout).toContain('not calibrated against human labels');
    expect(r.stdout).toContain('can steer a judge');
    expect(r.stderr).toContain('asking judge "judge" at the built-in reference server');
    expect(r.stderr).toContain('audit not saved (--no-store)');
  });

  it('--json prints the whole run on stdout and events on stderr, without raw evidence', async () => {
    const r = await cli(['--no-store', '--json', '--set', 'all', '--order-probe']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.kind).toBe('audit');
    expect(doc.audits.length).toBe(46);
    expect(doc.summary.audited).toBe(46);
    expect(doc.summary.counts.disagrees).toBe(doc.audits.filter((a: any) => a.outcome.status === 'disagrees').length);
    const events = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === 'audit_result').length).toBe(46);
    expect(events.some((e) => e.type === 'audit_start')).toBe(true);
    // Evidence text of a transcript never appears in the events.
    expect(r.stderr).not.toContain('payment succeeded');
    expect(r.stderr).not.toContain('Payment succeeded');
    expect(doc.summary.order_dependent.length).toBeGreaterThan(0);
    expect(doc.summary.injection.compared).toBeGreaterThan(0);
    // One key convention: snake_case (answer options, the keys of probabilities, are data).
    expect(nonSnakeKeys(doc, ['probabilities'])).toEqual([]);
    expect(doc.audits[0]).toMatchObject({ transcript_id: expect.any(String), check_id: expect.any(String) });
    expect(doc.config.order_probe).toBe(true);
    expect(events.flatMap((e) => nonSnakeKeys(e, ['probabilities']))).toEqual([]);
  });

  it('saves the audit, lists it as an audit, and shows it as a saved audit on resume', async () => {
    const store = join(tmp, 'sample.sqlite');
    const out = join(tmp, 'reports');
    const first = await cli(['--store', store, '--out', out]);
    expect(first.code).toBe(0);
    const id = /audit (audit-\S+) saved/.exec(first.stderr)![1]!;
    const files = readdirSync(out).sort();
    expect(files).toEqual([`${id}.json`, `${id}.md`]);
    const md = readFileSync(join(out, `${id}.md`), 'utf8');
    expect(md.indexOf('| transcript |')).toBeLessThan(md.indexOf('## Limits'));
    expect(md).toContain('not calibrated against human labels');
    expect(md).toContain('## Records');

    const s = openStore(store, { mustExist: true });
    const heads = s.audits.list();
    s.close();
    expect(heads.map((h) => h.id)).toEqual([id]);
    expect(renderAuditRunsList(heads, { colour: false })).toContain(id);

    const again = await cli(['--store', store, '--resume', id]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('saved audit: ');
    expect(again.stderr).not.toContain('asking judge');
  });
});

describe('Ctrl+C', () => {
  it('stops after the audit in flight, saves it as interrupted, exits 130 and says how to resume', async () => {
    const store = join(tmp, 'interrupted.sqlite');
    const r = await cli(['--store', store], {}, 'agrees with the check');
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/complete it with: decidekit audit --resume audit-\S+ --store /);
    const s = openStore(store, { mustExist: true });
    const [head] = s.audits.list();
    s.close();
    expect(head!.status).toBe('interrupted');
    expect(head!.finished).toBe(1);
    expect(head!.planned).toBe(30);
  });
});

describe('a judge that cannot be asked', () => {
  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = http.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });

  it('stops at the first request when nothing listens, exit 1, as bench does, and keeps nothing', async () => {
    const port = await freePort();
    const store = join(tmp, 'unreachable.sqlite');
    const r = await cli(['--base-url', `http://127.0.0.1:${port}`, '--store', store]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `decidekit audit: stopped: nothing is listening at 127.0.0.1:${port}; is the server running?\n`,
    );
    expect(r.stderr.match(/asking judge/g)).toHaveLength(1);
    expectNoStackTrace(r.stderr);
    const s = openStore(store, { mustExist: true });
    const audits = s.audits.list();
    s.close();
    expect(audits).toEqual([]);
    const bench = await runCliInProcess(['bench', '--base-url', `http://127.0.0.1:${port}`, '--store', store], {
      cwd: ROOT,
    });
    expect(bench.stderr).not.toContain('internal error');
    expect(bench.code).toBe(r.code);
  });

  it('saves an audit whose judge went away midway as incomplete, and the printed resume command completes it', async () => {
    const judge = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'judge' });
    const store = join(tmp, 'judge-gone.sqlite');
    let closing = null as Promise<void> | null; // set by the stderr callback
    const { code, stdout, stderr } = await runCliInProcess(
      ['audit', '--base-url', judge.url, '--model', 'judge', '--store', store],
      {
        cwd: ROOT,
        onStderr: (text) => {
          if (closing === null && text.includes('agrees with the check')) closing = judge.close();
        },
      },
    );
    await closing;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const hint = /complete it with: decidekit (audit --resume \S+ --store \S+)\n/.exec(stderr)?.[1];
    expect(stderr).toMatch(
      /decidekit audit: stopped: nothing is listening at 127\.0\.0\.1:\d+; is the server running\?; audit \S+ saved as incomplete/,
    );
    expect(hint).toBeDefined();
    const s = openStore(store, { mustExist: true });
    const [head] = s.audits.list();
    s.close();
    expect(head!.status).toBe('incomplete');
    expect(head!.finished).toBeLessThan(head!.planned);

    // The judge is back at the same address (a resumed audit keeps its judge endpoint).
    const again = await startReferenceServer({
      host: '127.0.0.1',
      port: Number(new URL(judge.url).port),
      model: 'judge',
    });
    closers.push(() => again.close());
    // Pasted as printed: the stored endpoint and model say which judge to ask.
    const resumed = await cli(hint!.split(' ').slice(1));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`at http://${new URL(again.url).host}/v1/systemone`);
    const t = openStore(store, { mustExist: true });
    const [done] = t.audits.list();
    t.close();
    expect(done!.status).toBe('complete');
    expect(done!.finished).toBe(done!.planned);
  });
});

describe('a judge that accepts connections and never answers', () => {
  it('gives each request --timeout seconds and stops after the first five all time out, saving the audit as incomplete', async () => {
    const silent = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          silent.close(() => resolve());
          for (const s of sockets) s.destroy();
        }),
    );
    const sockets: net.Socket[] = [];
    silent.on('connection', (s) => sockets.push(s));
    const { port } = silent.address() as AddressInfo;
    const store = join(tmp, 'silent-judge.sqlite');
    const r = await cli(['--base-url', `http://127.0.0.1:${port}`, '--timeout', '0.2', '--store', store]);
    expectNoStackTrace(r.stderr);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/asking judge/g)).toHaveLength(5);
    expect(r.stderr).toContain(
      'decidekit audit: stopped: the first 5 judge requests all timed out (no answer within 0.2 s each): the judge accepts connections but does not answer',
    );
    const s = openStore(store, { mustExist: true });
    const [kept] = s.audits.list();
    s.close();
    expect(kept!.status).toBe('incomplete');
    expect(r.stderr).toContain(`complete it with: decidekit audit --resume ${kept!.id} --store ${store}`);
  });

  it('says in its help that --timeout defaults to 60 s, as bench', async () => {
    const help = await cli(['--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/--timeout SEC [^-]*\(default 60\)/);
  });
});

describe('agreement on a handful of items', () => {
  it("gives Cohen's kappa an interval with width: 2 of 2 agreeing is not [1.00, 1.00]", async () => {
    const dir = mkdtempSync(join(tmp, 'two-items-'));
    const files = writeAuditFiles(dir, [
      { id: 'paid', said: ['Payment succeeded.'], label: 'claimed' },
      { id: 'declined', said: ['Your card was declined.'], label: 'not_claimed' },
    ]);
    const r = await cli(['--transcripts', files.transcripts, '--checks', files.checks, '--no-store']);
    expect(r.code, r.stderr).toBe(0);
    const row = r.stdout.split('\n').find((l) => l.startsWith('claim-v1'));
    expect(row).toMatch(/claim-v1 +2 +2\/2 +100\.0% +1\.00 \[-0\.32, 1\.00\]/);
    const json = JSON.parse(
      (await cli(['--transcripts', files.transcripts, '--checks', files.checks, '--no-store', '--json'])).stdout,
    );
    const kappa = json.summary.checks[0].kappa;
    expect(kappa.kappa).toBe(1);
    expect(kappa.low).toBeLessThan(0);
  });
});

describe('judge keys', () => {
  it('asks for the judge key again on resume only when the interrupted audit sent one', async () => {
    const judgeKey = 'judge-secret-R4t8Nm3';
    const judge = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'judge' });
    closers.push(() => judge.close());
    const store = join(tmp, 'keyed-interrupted.sqlite');
    const first = await cli(
      ['--base-url', judge.url, '--store', store],
      { DECIDEKIT_JUDGE_API_KEY: judgeKey },
      'agrees with the check',
    );
    expect(first.code).toBe(130);
    const hint =
      /complete it with: decidekit (audit --resume \S+ --store \S+)( \(with DECIDEKIT_JUDGE_API_KEY set: keys are never stored\))\n/.exec(
        first.stderr,
      );
    expect(hint, first.stderr).not.toBeNull();
    const pasted = hint![1]!.split(' ').slice(1);
    const keyless = await cli(pasted);
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain(
      'its judge was sent a key, and keys are never stored: give the judge key again (DECIDEKIT_JUDGE_API_KEY)',
    );
    expectNoStackTrace(keyless.stderr);
    const resumed = await cli(pasted, { DECIDEKIT_JUDGE_API_KEY: judgeKey });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(`${first.stderr}${keyless.stderr}${resumed.stderr}${resumed.stdout}`).not.toContain(judgeKey);

    // Without a key the hint names none and the pasted command needs none.
    const bare = join(tmp, 'keyless-interrupted.sqlite');
    const plain = await cli(['--base-url', judge.url, '--store', bare], {}, 'agrees with the check');
    expect(plain.code).toBe(130);
    const plainHint = /complete it with: decidekit (audit --resume \S+ --store \S+)\n/.exec(plain.stderr);
    expect(plainHint, plain.stderr).not.toBeNull();
    const again = await cli(plainHint![1]!.split(' ').slice(1));
    expect(again.code, again.stderr).toBe(0);
  });

  it('sends only the judge key to the judge and never stores or prints either key', async () => {
    const judgeKey = 'judge-secret-Q7x9Lk2';
    const benchKey = 'bench-secret-M3v8Pw1';
    const reference = await startReferenceServer({ host: '127.0.0.1', port: 0, model: 'judge' });
    closers.push(() => reference.close());
    const seenAuth: (string | undefined)[] = [];
    // A recording proxy: echoes the Authorization header back in an error body for one case.
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      const forward = async () => {
        seenAuth.push(req.headers.authorization);
        const body = Buffer.concat(chunks).toString('utf8');
        if (body.includes('ECHO')) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `refused ${req.headers.authorization}` } }));
          return;
        }
        const answer = await fetch(`${reference.url}/v1/systemone`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      };
      req.on('end', () => {
        forward().catch((err: unknown) => {
          res.writeHead(502);
          res.end(String(err));
        });
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => proxy.close(() => resolve())));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const dir = mkdtempSync(join(tmp, 'keys-'));
    const files = writeAuditFiles(dir, [
      { id: 'ok', said: ['Payment succeeded.'], label: 'claimed' },
      { id: 'echo', said: ['ECHO payment succeeded'], label: 'claimed' },
    ]);
    const store = join(dir, 'runs.sqlite');
    const out = join(dir, 'out');
    const env = { DECIDEKIT_JUDGE_API_KEY: judgeKey, DECIDEKIT_API_KEY: benchKey };
    const args = ['--transcripts', files.transcripts, '--checks', files.checks, '--base-url', url, '--model', 'judge'];
    const text = await cli([...args, '--store', store, '--out', out], env);
    const json = await cli([...args, '--no-store', '--json'], env);
    // The judge refused one item (500): a verdict it failed to give, so the audit is incomplete.
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('decidekit audit: incomplete: the judge failed to give 1 of');
    expect(seenAuth.length).toBe(4);
    expect(seenAuth.every((a) => a === `Bearer ${judgeKey}`)).toBe(true);
    expect(text.stdout).toContain('request error');
    const everything = [
      text.stdout,
      text.stderr,
      json.stdout,
      json.stderr,
      ...readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8')),
      ...readdirSync(dir)
        .filter((f) => f.startsWith('runs.sqlite'))
        .map((f) => readFileSync(join(dir, f)).toString('latin1')),
    ].join('\n');
    expect(everything).not.toContain(judgeKey);
    expect(everything).not.toContain(benchKey);
    expect(everything).toContain('[redacted]');
  });
});

describe('bad input and usage', () => {
  it('names file, line, transcript and field, once per cause, exit 1', async () => {
    const dir = mkdtempSync(join(tmp, 'bad-'));
    const files = writeAuditFiles(dir, [{ id: 'ok', said: ['x'], label: 'claimed' }]);
    writeFileSync(
      files.transcripts,
      [
        JSON.stringify({
          id: 'a',
          scenario: 'pay',
          messages: [{ role: 'assistant', content: 5 }],
          labels: { 'claim-v1': 'claimed' },
        }),
        '{not json',
        JSON.stringify({ id: 'b', scenario: 'pay', messages: [], labels: { 'claim-v1': 'maybe' } }),
        JSON.stringify({ id: 'a', scenario: 'pay', messages: [], labels: {} }),
      ].join('\n'),
    );
    const r = await cli(['--no-store', '--transcripts', files.transcripts, '--checks', files.checks]);
    expect(r.code).toBe(1);
    expectNoStackTrace(r.stderr);
    expect(r.stderr).toContain(
      'transcripts.jsonl:1: transcript "a": messages[0].content: must be a string or null (got 5)',
    );
    expect(r.stderr).toContain('transcripts.jsonl:2: not valid JSON');
    expect(r.stderr).toContain('transcripts.jsonl:4: transcript "a": id: already used on line 1');
    expect(r.stderr.match(/messages\[0\]\.content/g)!.length).toBe(1);

    writeFileSync(
      files.transcripts,
      JSON.stringify({ id: 'b', scenario: 'pay', messages: [], labels: { 'claim-v1': 'maybe' } }) + '\n',
    );
    const labels = await cli(['--no-store', '--transcripts', files.transcripts, '--checks', files.checks]);
    expect(labels.code).toBe(1);
    expect(labels.stderr).toContain(
      'transcripts.jsonl:1: transcript "b": labels.claim-v1: "maybe" is not an option of the check (claimed, not_claimed)',
    );

    writeFileSync(files.checks, JSON.stringify({ checks: [{ ...CLAIM_CHECK, id: 'claim', scope: 'everything' }] }));
    const checks = await cli(['--no-store', '--transcripts', files.transcripts, '--checks', files.checks]);
    expect(checks.code).toBe(1);
    expect(checks.stderr).toContain('checks.json: checks[0] (claim) id: "claim" has no version suffix');

    // One cause on many lines is shown once, with its lines.
    const many = ['x1', 'x2', 'x3'].map((id) => JSON.stringify({ id, scenario: 'pay', messages: [], labels: {} }));
    writeFileSync(files.transcripts, many.join('\n'));
    writeFileSync(files.checks, JSON.stringify({ checks: [CLAIM_CHECK] }));
    const missing = await cli(['--no-store', '--transcripts', files.transcripts, '--checks', files.checks]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.match(/labels\.claim-v1: missing/g)!.length).toBe(1);
    expect(missing.stderr).toContain('(the same problem on 3 lines: 1, 2, 3)');
    expectNoStackTrace(checks.stderr);
  });

  it('refuses judge URLs with a query or a fragment without echoing them (exit 2)', async () => {
    for (const [url, why] of [
      ['http://127.0.0.1:9/?key=hunter2pass', 'carries a query'],
      ['http://127.0.0.1:9/#hunter2pass', 'carries a fragment'],
      ['ftp://127.0.0.1:9', 'a judge URL is http or https'],
    ] as const) {
      const r = await cli(['--no-store', '--base-url', url]);
      expect(r.code, url).toBe(2);
      expect(r.stderr).toContain(why);
      expect(r.stderr).not.toContain('hunter2pass');
    }
    const model = await cli(['--no-store', '--model', 'laya']);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain('--model "laya" is not a built-in model');
    const half = await cli(['--no-store', '--checks', 'x.json']);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('give both --transcripts and --checks');
  });
});

describe('the bundled sample', () => {
  it('regenerates byte-identical files', () => {
    const out = join(tmp, 'sample');
    const written = writeAuditSample(out);
    expect(written.length).toBe(2);
    for (const path of written) {
      const name = path.slice(out.length + 1);
      expect(readFileSync(path, 'utf8'), name).toBe(readFileSync(join(ROOT, 'data', 'audits', name), 'utf8'));
    }
  });

  it('has at least 40 transcripts, 6 checks in both sets and both scopes, and transcripts tagged contradiction, empty, oversize, injection and near-miss', () => {
    const { checks, transcripts } = renderAuditSample();
    const parsed = JSON.parse(checks).checks as { set: string; scope: string }[];
    expect(parsed.length).toBe(6);
    expect(new Set(parsed.map((c) => c.set))).toEqual(new Set(['recommended', 'all']));
    expect(new Set(parsed.map((c) => c.scope))).toEqual(new Set(['messages', 'final_answer']));
    const rows = transcripts
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tags: string[] });
    expect(rows.length).toBeGreaterThanOrEqual(40);
    const tags = rows.flatMap((r) => r.tags);
    for (const tag of ['contradiction', 'empty', 'oversize', 'injection', 'near-miss'])
      expect(tags, tag).toContain(tag);
  });
});

describe('decidekit audit whose judge gives no verdict', () => {
  /** A judge on loopback that answers every request with a body that is no System One answer. */
  async function malformedJudge(): Promise<string> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"not": "an answer"}');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    closers.push(() => new Promise<void>((done) => server.close(() => done())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('is incomplete, exit 1, naming how many verdicts the judge failed to give, as bench with failed requests', async () => {
    const url = await malformedJudge();
    const r = await cli(['--base-url', url, '--no-store', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout);
    const failed = doc.audits.filter(
      (a: any) =>
        a.outcome.status === 'unavailable' && ['malformed_answer', 'invalid_answer'].includes(a.outcome.reason),
    ).length;
    expect(failed).toBeGreaterThan(0);
    expect(doc.status).toBe('incomplete');
    expect(r.stderr).toContain(
      `decidekit audit: incomplete: the judge failed to give ${failed} of ${doc.summary.audited} verdicts (`,
    );
    expectNoStackTrace(r.stderr);
  });

  it('stays complete, exit 0, when the only verdicts missing are of input that cannot be judged', async () => {
    const r = await cli(['--no-store', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.summary.counts.unavailable).toBeGreaterThan(0);
    expect(doc.status).toBe('complete');
  });

  it('is incomplete, exit 1, saying why, when no item could be judged at all (every one unjudgeable input)', async () => {
    const only = readFileSync(join(ROOT, 'data', 'audits', 'transcripts.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => /"T-0(10|11|29)"/.test(line));
    const transcripts = join(tmp, 'unjudgeable.jsonl');
    writeFileSync(transcripts, `${only.join('\n')}\n`);
    const store = join(tmp, 'unjudgeable.sqlite');
    const args = ['--transcripts', transcripts, '--checks', join(ROOT, 'data', 'audits', 'checks.json')];
    const r = await cli([...args, '--store', store]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      'decidekit audit: incomplete: no item could be judged: all 3 are input that cannot be judged (1 no evidence, 2 empty messages)',
    );
    expect(r.stderr).not.toContain('--resume');
    expectNoStackTrace(r.stderr);
    const json = await cli([...args, '--no-store', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).status).toBe('incomplete');
    const stored = openStore(store);
    try {
      expect(stored.audits.list().map((a) => a.status)).toEqual(['incomplete']);
    } finally {
      stored.close();
    }
  });
});
