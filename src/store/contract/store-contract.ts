/**
 * The contract every store adapter passes: what the port (`../store.ts`) promises, tested
 * through the port alone. An adapter's test file calls `describeStoreContract` with its
 * name and a factory of fresh stores; nothing here knows which adapter it tests.
 *
 *     describeStoreContract('sqlite', () => {
 *       const dir = tempFolderOwnedByCaller('store-');
 *       return { open: (o) => openSqliteStore(join(dir, 'runs.sqlite'), o), dispose: () => rmSync(dir, {...}) };
 *     });
 */
import { describe } from 'vitest';
import { describeAuditsContract } from './audits-contract.js';
import { describeCasesContract } from './cases-contract.js';
import type { FreshStore } from './contract-support.js';
import { describeIdsContract } from './ids-contract.js';
import { describeProbesContract } from './probes-contract.js';
import { describeReportReadsContract } from './report-reads-contract.js';
import { describeRunReadsContract } from './run-reads-contract.js';
import { describeReplicaNotesContract, describeRunLifecycleContract } from './run-lifecycle-contract.js';
import { describeRunsContract } from './runs-contract.js';

export type { ContractOpenOptions, FreshStore, StoreUnderTest } from './contract-support.js';

/** Declares the store contract's tests for the adapter `name`; `fresh` makes a new, empty store. */
export function describeStoreContract(name: string, fresh: FreshStore): void {
  describe(`store contract: ${name}`, () => {
    describeRunsContract(fresh);
    describeRunLifecycleContract(fresh);
    describeReplicaNotesContract(fresh);
    describeRunReadsContract(fresh);
    describeCasesContract(fresh);
    describeReportReadsContract(fresh);
    describeAuditsContract(fresh);
    describeProbesContract(fresh);
    describeIdsContract(fresh);
  });
}
