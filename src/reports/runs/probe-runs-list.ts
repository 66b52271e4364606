import type { PassCount } from '../../core/probe/run.js';
import type { ProbeHead } from '../../store/stored-probe.js';
import { endpointJson } from '../json-shapes.js';
import { singleLine } from '../format.js';
import { passedOfRan } from '../probe/probe-describe.js';
import { listEndpointCell, renderKindList } from './runs-list.js';

const counts = (c: PassCount | null) => (c === null ? 'n/a' : passedOfRan(c));

/**
 * `runs list`: the stored probes, newest first, under their own header (they have no
 * accuracy), cut to the width as the runs above are (the id starts with the UTC date and time).
 */
export function renderProbeRunsList(
  heads: readonly ProbeHead[],
  options: {
    readonly colour: boolean;
    readonly width?: number;
    /** How many probes the store holds, when more than those given (`--limit`). */
    readonly total?: number;
  },
): string {
  return renderKindList(
    {
      title: 'Probes (server conformance and robustness; never scored)',
      header: ['probe', 'model', 'endpoint', 'cases', 'checks ok', 'probes ok', 'conformant'],
      align: ['left', 'left', 'left', 'right', 'right', 'right', 'left'],
      rows: heads.map((h) => [
        h.id,
        singleLine(h.model ?? 'server default'),
        listEndpointCell(h.endpoint),
        String(h.cases),
        counts(h.conformance),
        counts(h.robustness),
        h.conformance === null ? 'n/a' : h.conformance.failed === 0 ? 'yes' : 'no',
      ]),
      // Model and endpoint give way; when even their minimums do not fit, the endpoint goes
      // ('runs show ID' names it).
      flexible: new Map([
        [1, 10],
        [2, 12],
      ]),
      droppable: [2],
      noun: 'probe',
    },
    options,
  );
}

/** A probe head in `runs list --json` (snake_case). */
export function probeHeadJson(h: ProbeHead, redactHost = false) {
  return {
    kind: h.kind,
    id: h.id,
    created_at: h.createdAt,
    endpoint: endpointJson(h.endpoint, redactHost),
    model: h.model,
    dataset_id: h.datasetId,
    scope: h.scope,
    cases: h.cases,
    seed: h.seed,
    conformance: passCountJson(h.conformance),
    robustness: passCountJson(h.robustness),
    duration_ms: h.durationMs,
  };
}

function passCountJson(c: PassCount | null) {
  return c === null ? null : { passed: c.passed, failed: c.failed };
}
