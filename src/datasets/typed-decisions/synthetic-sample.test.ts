import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseSample, writeSampleFiles } from '../../../scripts/make-typed-decisions-sample.js';
import type { Question } from '../../core/question.js';
import { loadBenchDataset, sampleDir } from './load-bench-dataset.js';
import { tempFoldersRemovedAfterEach } from '../test-support/temp-folders.js';

describe('the synthetic sample', () => {
  const sampleFolder = tempFoldersRemovedAfterEach('decidekit-sample-');

  it('is reproduced byte for byte by its generator', async () => {
    const dir = sampleFolder();
    const written = await writeSampleFiles(dir);
    expect(written.sort()).toEqual(['NOTICE', 'manifest.json', 'prior.json', 'test.jsonl', 'train.jsonl']);
    const committed = readdirSync(sampleDir())
      .filter((f) => f !== '.gitattributes')
      .sort();
    expect(committed).toEqual(written.sort());
    for (const name of written) {
      expect(
        readFileSync(join(dir, name)).equals(readFileSync(join(sampleDir(), name))),
        `${name} differs from the committed copy`,
      ).toBe(true);
    }
  });

  it('labels itself synthetic and attributes the question schemas', () => {
    const notice = readFileSync(join(sampleDir(), 'NOTICE'), 'utf8');
    expect(notice).toContain('SYNTHETIC DATA');
    expect(notice).toContain('LocalLLaMA/typed-decisions');
    expect(notice).toContain('Apache License 2.0');
    const manifest = JSON.parse(readFileSync(join(sampleDir(), 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ id: 'decidekit/typed-decisions-synthetic-sample', synthetic: true });
  });

  it('ships a prior fitted on train: one entry per question, answers in canonical order, summing to 1', async () => {
    const prior = JSON.parse(readFileSync(join(sampleDir(), 'prior.json'), 'utf8')) as {
      description: string;
      entries: { id: string; type: string; instructions: string; answers: string[]; probabilities: number[] }[];
    };
    expect(prior.description).toContain('train');
    expect(prior.entries).toHaveLength(20);
    const test = await loadBenchDataset({ kind: 'sample' });
    const questions = new Map<string, Question>(
      test.cases.flatMap((c) => c.questions.map(([qid, q]) => [`${c.workflow}/${qid}`, q] as const)),
    );
    for (const e of prior.entries) {
      const q = questions.get(e.id)!;
      expect(e.type).toBe(q.type);
      expect(e.instructions).toBe(q.instructions);
      expect(e.answers).toEqual(
        q.type === 'noul' ? ['true', 'false'] : q.type === 'choice' ? q.options : q.levels.map((_, i) => String(i)),
      );
      expect(Math.abs(e.probabilities.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-9);
      expect(e.probabilities.every((p) => p > 0)).toBe(true);
    }
  });

  it('rewards reading the state: the hidden factors predict gold far better than the prior', () => {
    const stats = analyseSample();
    expect(stats.decisions).toBe(500);
    expect(stats.accuracy.perfectUnderstanding).toBeGreaterThan(stats.accuracy.prior + 0.15);
    expect(stats.accuracy.prior).toBeGreaterThan(stats.accuracy.uniform);
    // Soft gold, as in the real data: far from one-hot on average.
    expect(stats.kl.uniform).toBeGreaterThan(0.2);
    expect(stats.kl.uniform).toBeLessThan(0.8);
  });

  it('lets a model that reads only the state beat the train prior', async () => {
    // Four yes/no questions answered by plain rules over the state, against the prior's top answer.
    // The rules read the JSON states as they come.
    type State = any;
    const rules: Record<string, (s: State) => boolean> = {
      'invoice_processing/duplicate': (s) => s.vendor_history.prior_invoice_ids.includes(s.invoice.id),
      'invoice_processing/matches_order': (s) =>
        Math.abs(s.invoice.total_usd - s.purchase_order.total_usd) < 0.05 && s.delivery.condition === 'good',
      'agent_trace_observability/needs_review': (s) =>
        s.trace_summary.constraint_violations > 0 || s.trace_summary.tool_errors >= 3,
      'security_incidents/true_positive': (s) =>
        !(
          s.context.change_window_active ||
          s.context.source_on_allowlist ||
          s.alert.evidence.some((e: string) =>
            /VPN|change ticket|scanner|expired password|own CI|automation|runbook|managed laptop/.test(e),
          )
        ),
    };
    const prior = JSON.parse(readFileSync(join(sampleDir(), 'prior.json'), 'utf8')) as {
      entries: { id: string; answers: string[]; probabilities: number[] }[];
    };
    const priorTop = new Map(
      prior.entries.map((e) => [e.id, e.answers[e.probabilities.indexOf(Math.max(...e.probabilities))]]),
    );
    const test = await loadBenchDataset({ kind: 'sample' });
    let n = 0;
    let byRule = 0;
    let byPrior = 0;
    for (const c of test.cases) {
      c.questions.forEach(([qid], i) => {
        const rule = rules[`${c.workflow}/${qid}`];
        if (rule === undefined) return;
        const label = c.gold[i]!.labelIndex === 0 ? 'true' : 'false';
        n++;
        if (String(rule(c.state)) === label) byRule++;
        if (priorTop.get(`${c.workflow}/${qid}`) === label) byPrior++;
      });
    }
    expect(n).toBe(100);
    expect(byRule / n).toBeGreaterThan(byPrior / n + 0.15);
  });
});
