/** The probe as one JSON document (snake_case keys, unrounded numbers, absent values null). */
import { jsonDocumentText } from '../../core/safe-text.js';
import type { ConformanceSummary } from '../../core/probe/conformance.js';
import type { NoiseFloor, RobustnessSummary } from '../../core/probe/robustness.js';
import { isConformant, type ProbeRun } from '../../core/probe/run.js';
import { endpointJson, intervalJson } from '../json-shapes.js';

export function probeJson(run: ProbeRun) {
  const c = run.config;
  return {
    id: run.id,
    created_at: run.createdAt,
    duration_ms: run.durationMs,
    requests: run.requests,
    config: {
      tool_version: c.toolVersion,
      endpoint: endpointJson(c.endpoint),
      model: c.model,
      dataset: {
        id: c.dataset.id,
        revision: c.dataset.revision,
        split: c.dataset.split,
        synthetic: c.dataset.synthetic,
      },
      case_ids: c.caseIds,
      cases_asked: c.casesAsked,
      seed: c.seed,
      scope: c.scope,
      oversized_body_bytes: c.oversizedBodyBytes,
      bootstrap_resamples: c.resamples,
    },
    conformant: run.conformance === null ? null : isConformant(run),
    conformance: run.conformance === null ? null : conformanceJson(run.conformance),
    robustness: run.robustness === null ? null : robustnessJson(run.robustness),
  };
}

function conformanceJson(s: ConformanceSummary) {
  return {
    passed: s.passed,
    failed: s.failed,
    not_run: s.notRun,
    checks: s.checks.map((k) => ({
      id: k.id,
      rule: k.rule,
      status: k.status,
      checked: k.checked,
      failed: k.failed,
      examples: k.examples.map((e) => ({ message: e.message, request: e.request, answer: e.answer })),
    })),
  };
}

/** A noise floor; `…_from` names the repeat probe each measure came from (null in probes kept before it was). */
function floorJson(f: NoiseFloor | null) {
  return f === null
    ? null
    : {
        flip_rate: f.flipRate.value,
        flip_rate_ci: intervalJson(f.flipRate.interval),
        flip_rate_from: f.flipRateFrom ?? null,
        mean_tv: f.meanTv.value,
        mean_tv_ci: intervalJson(f.meanTv.interval),
        mean_tv_from: f.meanTvFrom ?? null,
        deterministic: f.deterministic,
      };
}

function robustnessJson(r: RobustnessSummary) {
  return {
    passed: r.passed,
    failed: r.failed,
    noise_floor: floorJson(r.noiseFloor),
    probes: r.probes.map((p) => ({
      id: p.id,
      rule: p.rule,
      verdict: p.verdict,
      reason: p.reason,
      cases: p.cases,
      pairs: p.pairs,
      flips: p.flips,
      flip_rate: p.flipRate?.value ?? null,
      flip_rate_ci: intervalJson(p.flipRate?.interval),
      mean_tv: p.meanTv?.value ?? null,
      mean_tv_ci: intervalJson(p.meanTv?.interval),
      max_abs_diff: p.maxAbsDiff,
      accuracy:
        p.accuracy === null
          ? null
          : {
              alone: p.accuracy.alone,
              beside: p.accuracy.beside,
              difference: p.accuracy.difference.value,
              difference_ci: intervalJson(p.accuracy.difference.interval),
            },
      floor: floorJson(p.floor ?? null),
      exceeded: p.exceeded ?? null,
      lost: { requests: p.lost.requests, decisions: p.lost.decisions },
      moved: p.moved.map((m) => ({
        case_id: m.caseId,
        question_id: m.questionId,
        variant: m.variant,
        answers: m.answers,
        before: m.before,
        after: m.after,
        top_before: m.topBefore,
        top_after: m.topAfter,
        tv: m.tv,
      })),
    })),
  };
}

export function renderProbeJson(run: ProbeRun): string {
  return `${jsonDocumentText(probeJson(run))}\n`;
}
