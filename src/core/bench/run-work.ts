/**
 * What a run measured ("the work"), apart from who answered: the dataset revision, the
 * case set and the question set. Two runs of the same work compare decision by decision,
 * whatever model or server answered them; the fingerprint adds the model and endpoint on
 * top (docs/benchmark.md, "Resume and fingerprints").
 */
import { canonicalJson } from '../canonical-json.js';
import type { RunConfig } from './run.js';

/** How many ids a reason names before counting the rest. */
const MAX_NAMED = 5;

/**
 * The work part of the fingerprint's input: dataset id, revision, split (and a file's
 * content hash), the case ids as a sorted set, the question set, and the hash of the
 * calibration map applied before scoring (when one is).
 */
export function workIdentityOf(config: RunConfig): unknown {
  return { ...workBesidesCases(config), caseIds: [...new Set(config.caseIds)].sort() };
}

/** The work's identity but its case set. */
function workBesidesCases(config: RunConfig): Record<string, unknown> {
  return {
    dataset: {
      id: config.dataset.id,
      revision: config.dataset.revision,
      split: config.dataset.split,
      // A file's content is part of what was measured (its path is not: files move).
      ...(config.dataset.file ? { sha256: config.dataset.file.sha256 } : {}),
    },
    questionSet: config.questionSet,
    // Recalibrated numbers measure other probabilities than raw ones; a run without a map
    // keeps the identity (and fingerprint) it always had.
    ...(config.calibration === undefined ? {} : { calibrationSha256: config.calibration.sha256 }),
  };
}

/** True when both runs asked the same questions of the same cases of the same dataset. */
export function isSameWork(a: RunConfig, b: RunConfig): boolean {
  // Runs over one case list in one order (the usual pair) have one case set: the rest of
  // the identity decides, without sorting every case id of each.
  if (sameList(a.caseIds, b.caseIds)) return canonicalJson(workBesidesCases(a)) === canonicalJson(workBesidesCases(b));
  return workIdentityText(a) === workIdentityText(b);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// A comparison asks this of the same configs more than once (to refuse, then to report), and
// a large run's identity sorts all its case ids: each config's text is made once.
const identityTexts = new WeakMap<RunConfig, string>();

function workIdentityText(config: RunConfig): string {
  let text = identityTexts.get(config);
  if (text === undefined) identityTexts.set(config, (text = canonicalJson(workIdentityOf(config))));
  return text;
}

function named(items: readonly string[]): string {
  const shown = items.slice(0, MAX_NAMED).join(', ');
  return items.length > MAX_NAMED ? `${shown} and ${items.length - MAX_NAMED} more` : shown;
}

const show = (v: string | null): string => (v === null ? 'none' : JSON.stringify(v));

/**
 * Every way run `now` measured other work than run `was`, one reason each (empty when the
 * work is the same), worded from `was`'s side: "dataset revision: A "r1", B "r2"".
 */
export function workDifferences(
  was: RunConfig,
  now: RunConfig,
  sides: {
    readonly was: string;
    readonly now: string;
    /** How cases of `was` alone are introduced ("not in this run"). */
    readonly onlyInWas: string;
    readonly onlyInNow: string;
  },
): string[] {
  const reasons: string[] = [];
  const pair = (a: string | null, b: string | null) => `${sides.was} ${show(a)}, ${sides.now} ${show(b)}`;
  if (was.dataset.id !== now.dataset.id) reasons.push(`dataset: ${pair(was.dataset.id, now.dataset.id)}`);
  if (was.dataset.revision !== now.dataset.revision)
    reasons.push(`dataset revision: ${pair(was.dataset.revision, now.dataset.revision)}`);
  const [fa, fb] = [was.dataset.file, now.dataset.file];
  if (fa?.sha256 !== fb?.sha256)
    reasons.push(
      `dataset file content: ${sides.was} ${fa ? `sha256 ${fa.sha256.slice(0, 12)}… (${fa.path})` : 'no file'}, ${sides.now} ${fb ? `sha256 ${fb.sha256.slice(0, 12)}… (${fb.path})` : 'no file'}`,
    );
  if (was.dataset.split !== now.dataset.split)
    reasons.push(`dataset split: ${pair(was.dataset.split, now.dataset.split)}`);

  const casesWas = new Set(was.caseIds);
  const casesNow = new Set(now.caseIds);
  const missing = [...casesWas].filter((id) => !casesNow.has(id));
  const added = [...casesNow].filter((id) => !casesWas.has(id));
  if (missing.length > 0 || added.length > 0) {
    const parts = [`${sides.was} ${casesWas.size} cases, ${sides.now} ${casesNow.size}`];
    if (missing.length > 0) parts.push(`${sides.onlyInWas}: ${named(missing)}`);
    if (added.length > 0) parts.push(`${sides.onlyInNow}: ${named(added)}`);
    reasons.push(`case set: ${parts.join('; ')}`);
  }

  const keys = [...new Set([...Object.keys(was.questionSet), ...Object.keys(now.questionSet)])].sort();
  const changed = keys.filter((k) => was.questionSet[k] !== now.questionSet[k]);
  if (changed.length > 0)
    reasons.push(
      `question set: ${changed.length} question${changed.length === 1 ? ' differs' : 's differ'} (${named(changed)})`,
    );
  const [ca, cb] = [was.calibration, now.calibration];
  if (ca?.sha256 !== cb?.sha256)
    reasons.push(`calibration map: ${sides.was} ${calibrationShown(ca)}, ${sides.now} ${calibrationShown(cb)}`);
  return reasons;
}

function calibrationShown(c: RunConfig['calibration']): string {
  return c === undefined ? 'none' : `sha256 ${c.sha256.slice(0, 12)}… (${c.path})`;
}
