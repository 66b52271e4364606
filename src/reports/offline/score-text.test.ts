import { describe, expect, it } from 'vitest';
import type { OfflineCase, OfflineResult } from '../../core/offline/case.js';
import { createOfflineAccumulator, summarizeOffline } from '../../core/offline/summary.js';
import { formatMs, formatUsd } from '../format.js';
import { renderScoreJson } from './score-json.js';
import type { ScoredModel } from '../../core/offline/scored-files.js';
import { renderCompareMarkdown, renderCompareNotes, renderScoreText, renderValidationText } from './score-text.js';

const yn: OfflineCase = { id: 'y', kind: 'yes_no', correct: true };
const result = (p: number, extra: Partial<OfflineResult> = {}): OfflineResult => ({
  caseId: 'y',
  model: 'm',
  decision: { kind: 'yes_no', probability: p },
  ...extra,
});
const model = (name: string | null, summary = createOfflineAccumulator().summarize(2)): ScoredModel => ({
  datasetPath: 'd.jsonl',
  resultsPath: `${name}.jsonl`,
  model: name,
  summary,
});

describe('offline renderers', () => {
  it('shows absent metrics as n/a in text and null in JSON, with the reason for cost', () => {
    const m = model('empty');
    const text = renderScoreText(m);
    expect(text).toMatch(/Accuracy\s+n\/a/);
    expect(text).toMatch(/\$ \/ correct\s+n\/a\s+no result carries cost_usd/);
    expect(text).toContain('2 missing');
    expect(text).not.toContain('NaN');
    const json = JSON.parse(renderScoreJson(m)) as Record<string, unknown>;
    expect(json['accuracy']).toBeNull();
    expect(json['cost_per_correct_usd']).toBeNull();
    expect(json['cost_per_correct_reason']).toBe('no_cost');
  });

  it('gives every null its reason, in JSON (null_reasons) and in text', () => {
    const empty = model('empty');
    const json = JSON.parse(renderScoreJson(empty)) as Record<string, unknown>;
    const nulls = Object.keys(json).filter((k) => json[k] === null && k !== 'model');
    expect(Object.keys(json['null_reasons'] as object).sort()).toEqual(nulls.sort());
    expect((json['null_reasons'] as Record<string, string>)['brier']).toBe('no case has a result');
    expect(renderScoreText(empty)).toMatch(/Brier\s+n\/a\s+no case has a result/);
    expect(renderScoreText(empty)).toMatch(/Log loss\s+n\/a\s+no case has a result/);
    // A score-only model: the yes/no metrics are null for that reason; nothing else is.
    const sc: OfflineCase = { id: 's', kind: 'score', correct: 3, scoreMin: 0, scoreMax: 5 };
    const scoreOnly = summarizeOffline([
      {
        case: sc,
        result: { caseId: 's', model: 'm', decision: { kind: 'score', value: 2 }, costUsd: 0.1, latencyMs: 5 },
      },
    ]);
    const doc = JSON.parse(renderScoreJson(model('m', scoreOnly))) as Record<string, unknown>;
    expect(doc['null_reasons']).toMatchObject({
      accuracy: 'no yes_no or choice case has a result',
      brier: 'no yes_no or choice case has a result',
      log_loss: 'no yes_no or choice case has a result',
      ece: 'no yes_no or choice case has a result',
      mean_confidence: 'no yes_no or choice case has a result',
      cost_per_correct_usd: 'no decision is correct',
    });
    const full = JSON.parse(
      renderScoreJson(
        model('m', summarizeOffline([{ case: yn, result: result(0.9, { costUsd: 0.1, latencyMs: 3 }) }])),
      ),
    );
    expect(full.null_reasons).toEqual({
      ranking: 'needs every yes/no decision: no intervals computed (--no-ci)',
      ece_debiased: 'needs every decision: no intervals computed (--no-ci)',
      ece_debiased_ci: 'needs every decision: no intervals computed (--no-ci)',
      score_mae: 'no score case has a result',
      accuracy_ci: 'no intervals computed (--no-ci)',
      brier_ci: 'no intervals computed (--no-ci)',
      log_loss_ci: 'no intervals computed (--no-ci)',
      ece_ci: 'no intervals computed (--no-ci)',
      ece_noise_floor: 'no intervals computed (--no-ci)',
    });
  });

  it('says why cost per correct is absent when nothing is correct', () => {
    const s = summarizeOffline([{ case: yn, result: result(0.1, { costUsd: 0.2 }) }]);
    expect(renderScoreText(model('m', s))).toMatch(/\$ \/ correct\s+n\/a\s+no decision is correct; total \$0\.200/);
    expect(renderCompareNotes([model('m', s)])).toContain('m: $ / correct is n/a (no decision is correct)');
  });

  it('aligns the compare table and keeps the rows in the order given', () => {
    const a = summarizeOffline([{ case: yn, result: result(0.9, { costUsd: 0.004, latencyMs: 812.4 }) }]);
    const b = summarizeOffline([{ case: yn, result: result(0.2) }]);
    const lines = renderCompareMarkdown([model('zeta-model-long-name', a), model('a', b)])
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(4);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[2]).toMatch(/^\| zeta-model-long-name \|\s+1\.000 \|.*\|\s+\$0\.00400 \|\s+812 \|$/);
    expect(lines[3]).toMatch(/^\| a\s+\|\s+0\.000 \|.*\|\s+n\/a \|\s+n\/a \|$/);
  });

  it('colours only when asked', () => {
    const s = summarizeOffline([{ case: yn, result: result(0.9) }]);
    expect(renderScoreText(model('m', s), { colour: true })).toContain('\u001b[1m');
    expect(renderScoreText(model('m', s))).not.toContain('\u001b[');
    expect(
      renderValidationText([
        {
          role: 'dataset',
          path: 'd',
          ok: false,
          problems: [{ file: 'd', line: 3, caseId: 'x', field: 'kind', message: 'kind is missing' }],
          omitted: 2,
        },
      ]),
    ).toContain('d:3 case x: kind is missing [kind]\n      ... and 2 more (not listed)');
  });

  it('formats small dollar amounts with three significant digits and milliseconds sensibly', () => {
    expect(formatUsd(0.000465)).toBe('$0.000465');
    expect(formatUsd(0.0066)).toBe('$0.00660');
    expect(formatUsd(12.345)).toBe('$12.35');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatMs(1019.4)).toBe('1019');
    expect(formatMs(42.25)).toBe('42.3');
    expect(formatMs(null)).toBe('n/a');
  });
});
