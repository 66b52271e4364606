/**
 * The one run status, shared by every product line that keeps runs (the benchmark's runs,
 * the answer audits): `running` while stored and under way, then how it ended.
 */

/** The statuses a stored run or audit can have, in the order a summary names them. */
export const STORED_STATUS_ORDER = ['complete', 'incomplete', 'interrupted', 'running'] as const;

/** A stored run's or audit's lifecycle: `running` until it is finished (or marked interrupted after a crash). */
export type StoredStatus = (typeof STORED_STATUS_ORDER)[number];

/** How a run or audit ended: every case done, stopped early (a stop rule, a failure), or interrupted. */
export type RunStatus = Exclude<StoredStatus, 'running'>;
