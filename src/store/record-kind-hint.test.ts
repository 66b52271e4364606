import { describe, expect, it } from 'vitest';
import { resolveRecordId } from './record-kind.js';

describe('an unknown id', () => {
  it('is refused with a runs list hint that names the store it was looked for in, so it works when pasted', () => {
    const store = { path: '/tmp/push store.sqlite', idsStartingWith: () => [] };
    expect(() => resolveRecordId('run', '20260101', store)).toThrow(
      "(see: decidekit runs list --store '/tmp/push store.sqlite')",
    );
    expect(() => resolveRecordId('audit', 'audit-x', store)).toThrow(
      "(see: decidekit runs list --store '/tmp/push store.sqlite')",
    );
  });
});
