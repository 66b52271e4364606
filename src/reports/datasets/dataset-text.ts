/** `dataset fetch|info|verify` for the terminal: the text twins of `dataset-json.ts`. */
import { singleLine } from '../format.js';
import { renderRowsWrappingLast, wrapStyled } from '../text-fit.js';
import type { FetchTypedDecisionsResult } from '../../datasets/typed-decisions/fetch-typed-decisions.js';
import type {
  DatasetDescription,
  DatasetNotFetched,
  DatasetVerification,
} from '../../datasets/typed-decisions/dataset-description.js';

export function renderFetchText(r: FetchTypedDecisionsResult): string {
  const source = r.manifest.source;
  return [
    `fetched ${r.manifest.id} revision ${r.manifest.revision}: ${r.cases} test cases`,
    `  stored in  ${r.dir}`,
    source === null
      ? null
      : `  sha256     ${source.sha256} (${source.sha256Pinned ? 'verified' : 'recorded, not verified'})`,
    `  ${r.manifest.attribution}`,
    '',
  ]
    .filter((l) => l !== null)
    .join('\n');
}

function describedText(e: DatasetDescription, columns: number): string {
  const { info, manifest, summary } = e;
  const rows: [string, string][] = [
    ['dataset', info.synthetic ? `${info.id}  (SYNTHETIC: not Typed Decisions data or scores)` : info.id],
    ['revision', info.revision ?? 'n/a'],
    ['split', `${info.split}: ${summary.cases} cases, ${summary.decisions} decisions`],
    ['license', info.license],
    ['url', info.url ?? 'n/a'],
    ['location', e.location],
  ];
  const source = manifest?.source ?? null;
  if (source !== null)
    rows.push([
      'source',
      `${source.path} sha256 ${source.sha256} (${source.sha256Pinned ? 'verified at download' : 'recorded at download, not verified'})`,
    ]);
  if (manifest?.generator) rows.push(['generator', `${manifest.generator.script} (seed ${manifest.generator.seed})`]);
  if (manifest === null) rows.push(['manifest', 'none (a user file: provenance unknown, no integrity check)']);
  else {
    for (const f of manifest.files)
      rows.push([`file ${f.split}`, `${f.path}: ${f.rows} rows, ${f.bytes} bytes, sha256 ${f.sha256}`]);
  }
  const counts = (record: Readonly<Record<string, number>>) =>
    Object.entries(record)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  rows.push(['workflows', counts(summary.casesByWorkflow)]);
  rows.push(['questions', counts(summary.decisionsByType)]);
  rows.push(['attribution', info.attribution]);
  // Every value may come from a manifest or a file name: its escapes are shown, never run.
  const lines = renderRowsWrappingLast(
    rows.map(([k, v]) => [k, singleLine(v)]),
    columns,
    { indent: '  ', align: ['left', 'left'] },
  );
  return `${wrapStyled(singleLine(e.target), columns).join('\n')}\n${lines.join('\n')}\n`;
}

export function renderDatasetInfoText(
  described: readonly DatasetDescription[],
  notFetched: readonly DatasetNotFetched[],
  columns = Infinity,
): string {
  return [
    ...described.map((e) => describedText(e, columns)),
    ...notFetched.map(
      (m) => `${wrapStyled(`${singleLine(m.target)}: not fetched. ${singleLine(m.message)}`, columns).join('\n')}\n`,
    ),
  ].join('\n');
}

export function renderVerifyText(results: readonly DatasetVerification[]): string {
  const lines: string[] = [];
  for (const r of results) {
    if (r.ok) {
      const v = r.verified;
      const splits = v.splits.map((s) => `${s.split ?? 'all rows'} ${s.cases} cases`).join(', ');
      const integrity =
        v.manifest === null
          ? 'rows valid; no manifest, so no integrity check'
          : 'matches its manifest (size, sha256, rows); rows valid';
      lines.push(
        `ok      ${r.target}: ${v.info.id}${v.info.revision === null ? '' : ` @ ${v.info.revision}`}: ${splits}; ${integrity}`,
      );
      // The manifest named another dataset than the one its files are: say who they are.
      if (v.manifest !== null && v.manifest.id !== v.info.id) lines.push(`        ${v.info.attribution}`);
    } else if (r.skipped) {
      lines.push(`skipped ${r.target}: not fetched (decidekit dataset fetch typed-decisions)`);
    } else {
      lines.push(`FAILED  ${r.target}: ${r.error}`);
      for (const p of r.problems.slice(1)) lines.push(`        ${p}`);
    }
  }
  // Targets, ids and errors may quote a manifest or a file name: their escapes are shown, never run.
  return lines.map((l) => `${singleLine(l)}\n`).join('');
}
