import { spellForCli } from '../../cli/option-flags.js';
import { describe, expect, it } from 'vitest';
import { settleRun, type SendingOver } from './settle-run.js';

const over = (changes: Partial<SendingOver> = {}): SendingOver => ({
  stopped: null,
  finishedCases: 10,
  answeredCases: 10,
  resumed: false,
  hasId: true,
  hasStore: true,
  retryFailed: false,
  timeoutMs: 60_000,
  ...changes,
});

describe('settleRun', () => {
  it('keeps a run that sent every case, summed from the cases counted while sending', () => {
    expect(settleRun(over())).toEqual({ kind: 'finished', interrupted: false, keep: true, sumFromStore: false });
  });

  it('keeps nothing in a store that is not there', () => {
    expect(settleRun(over({ hasStore: false }))).toMatchObject({ kind: 'finished', keep: false });
  });

  it('keeps an interrupted run that saved cases, and drops a new one that saved none', () => {
    const aborted = { reason: 'aborted' as const, error: new Error('aborted') };
    expect(settleRun(over({ stopped: aborted }))).toEqual({
      kind: 'finished',
      interrupted: true,
      keep: true,
      sumFromStore: false,
    });
    expect(settleRun(over({ stopped: aborted, hasId: false, finishedCases: 0 }))).toMatchObject({
      kind: 'finished',
      interrupted: true,
      keep: false,
    });
  });

  it('sums a stopped --retry-failed resume from the store, whose failed cases were not all re-sent', () => {
    const aborted = { reason: 'aborted' as const, error: new Error('aborted') };
    expect(settleRun(over({ stopped: aborted, resumed: true, retryFailed: true }))).toMatchObject({
      sumFromStore: true,
    });
    expect(settleRun(over({ resumed: true, retryFailed: true }))).toMatchObject({ sumFromStore: false });
    expect(settleRun(over({ stopped: aborted, retryFailed: true, hasStore: false }))).toMatchObject({
      sumFromStore: false,
    });
  });

  it('deletes a new run that the server stopped before any answer, with the error as its message', () => {
    const stopped = { reason: 'unsupported' as const, error: new Error('nothing listens at http://127.0.0.1:9') };
    expect(settleRun(over({ stopped, answeredCases: 0 }))).toEqual({
      kind: 'stopped',
      record: 'delete',
      sumFromStore: false,
      message: 'nothing listens at http://127.0.0.1:9',
      words: ['nothing listens at http://127.0.0.1:9'],
    });
  });

  it('keeps a stopped run as incomplete once it was answered, or when it is a resumed one', () => {
    const stopped = { reason: 'unsupported' as const, error: 'key refused' };
    expect(settleRun(over({ stopped, answeredCases: 3 }))).toMatchObject({
      record: 'incomplete',
      message: 'key refused',
    });
    expect(settleRun(over({ stopped, answeredCases: 0, resumed: true }))).toMatchObject({ record: 'incomplete' });
    expect(settleRun(over({ stopped, hasId: false }))).toMatchObject({ record: 'none' });
  });

  it('keeps a new run whose first requests all timed out as incomplete, naming the timeout', () => {
    const stopped = { reason: 'timeouts' as const, error: new Error('timed out after 200 ms') };
    expect(settleRun(over({ stopped, finishedCases: 5, answeredCases: 0, timeoutMs: 200 }))).toMatchObject({
      kind: 'stopped',
      record: 'incomplete',
      message:
        'the first 5 requests all timed out (no answer within 0.2 s each): the server accepts connections but does not answer',
    });
  });

  it('says how many first requests were rejected alike', () => {
    const stopped = { reason: 'rejected' as const, error: new Error('bad model') };
    const one = settleRun(over({ stopped, finishedCases: 1, answeredCases: 0 }));
    const five = settleRun(over({ stopped, finishedCases: 5, answeredCases: 0 }));
    expect(one).toMatchObject({
      kind: 'stopped',
      message: "the server rejected the only request: unexpected error: bad model (check model and the server's log)",
    });
    if (one.kind !== 'stopped') throw new Error('not stopped');
    expect(spellForCli(one.words)).toBe(
      "the server rejected the only request: unexpected error: bad model (check --model and the server's log)",
    );
    expect(five).toMatchObject({
      message:
        "the server rejected the first 5 requests the same way: unexpected error: bad model (check model and the server's log)",
    });
  });
});
