import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listStore } from './stored-runs.js';
import { openSqliteStore } from '../../store/sqlite/open-sqlite-store.js';
import { AUDIT_CONFIG as AUDIT } from '../../store/test-support/audit-fixture.js';
import { probeRun } from '../../store/test-support/probe-fixture.js';
import { runConfig } from '../../store/test-support/run-fixtures.js';
import { tempFolderRemovedAfterAll } from '../../datasets/test-support/temp-folders.js';

const dir = tempFolderRemovedAfterAll('decidekit-overview-');

describe('listStore', () => {
  it('keeps the newest of each kind up to the limit and counts every one', () => {
    const path = join(dir, 'runs.sqlite');
    const runs = openSqliteStore(path);
    const runIds = [1, 2, 3].map(
      (h) => runs.runs.create({ config: runConfig(), label: null, createdAt: `2026-12-01T0${h}:00:00.000Z` }).id,
    );
    runs.close();
    const audits = openSqliteStore(path);
    const auditIds = [1, 2, 3].map((h) =>
      audits.audits.create({ config: AUDIT, label: null, createdAt: `2026-12-01T0${h}:10:00.000Z` }),
    );
    audits.audits.finish(auditIds[0]!, { status: 'complete', durationMs: 1 });
    audits.close();
    const probes = openSqliteStore(path);
    const probeIds = [1, 2].map((h) => probes.probes.save(probeRun(`2026-12-01T0${h}:20:00.000Z`, 0)));
    probes.close();

    const o = listStore(path, { limit: 1 });
    expect(o.runs.map((r) => r.id)).toEqual([runIds[2]]);
    expect(o.runCounts).toEqual({ running: 3, complete: 0, incomplete: 0, interrupted: 0 });
    expect(o.audits.map((a) => a.id)).toEqual([auditIds[2]]);
    expect(o.auditCounts).toEqual({ running: 2, complete: 1, incomplete: 0, interrupted: 0 });
    expect(o.auditCount).toBe(3);
    expect(o.probes.map((p) => p.id)).toEqual([probeIds[1]]);
    expect(o.probeCount).toBe(2);
    expect(listStore(path).runs.map((r) => r.id)).toEqual([...runIds].reverse());
  });

  it('reads a store that does not exist yet as empty, without creating it', () => {
    const path = join(dir, 'none', 'runs.sqlite');
    const o = listStore(path, { limit: 5 });
    expect([o.runs, o.audits, o.probes, o.auditCount, o.probeCount]).toEqual([[], [], [], 0, 0]);
    expect(existsSync(path)).toBe(false);
  });
});
