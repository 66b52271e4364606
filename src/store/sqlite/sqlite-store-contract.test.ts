import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolderOwnedByCaller } from '../../datasets/test-support/temp-folders.js';
import { describeStoreContract } from '../contract/store-contract.js';
import { openSqliteStore } from './open-sqlite-store.js';

describeStoreContract('sqlite', () => {
  const dir = tempFolderOwnedByCaller('decidekit-store-contract-');
  return {
    open: (options) => openSqliteStore(join(dir, 'runs.sqlite'), options),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
});
