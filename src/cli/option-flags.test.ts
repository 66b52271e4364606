import { describe, expect, it } from 'vitest';
import { planBench } from '../app/bench/plan-bench.js';
import { OptionError } from '../core/errors.js';
import { CALL_OPTIONS, optionMention, words } from '../core/message-words.js';
import { cliMessageOf, flagOf } from './option-flags.js';
import { declaredFlags } from './test-support/declared-flags.js';

describe('options named in library messages', () => {
  it('reads as the call spells them in the library and as flags on the command line', () => {
    let caught: unknown;
    try {
      planBench({ storePath: null, resume: 'abc' }, null);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(OptionError);
    expect((caught as OptionError).option).toBe('resume');
    expect((caught as OptionError).message).toBe('resume needs the run store; drop storePath: null');
    expect(cliMessageOf(caught)).toBe('--resume needs the run store; drop --no-store');
  });

  it('keeps a placeholder for the command line only, and splices the words of another error', () => {
    const inner = new OptionError('baseUrl', words`${optionMention('baseUrl')}: not a URL`);
    const outer = new OptionError(
      'retryFailed',
      words`${optionMention('retryFailed')} goes with ${optionMention('resume', 'RUN')} (${inner})`,
    );
    expect(outer.message).toBe('retryFailed goes with resume (baseUrl: not a URL)');
    expect(cliMessageOf(outer)).toBe('--retry-failed goes with --resume RUN (--base-url: not a URL)');
  });

  it('maps every option to a flag some command declares (the run ids are positional)', async () => {
    const flags = await declaredFlags();
    for (const option of CALL_OPTIONS)
      if (option === 'runIds') expect(flagOf({ option })).toBe('RUN');
      else expect(flags, option).toContain(flagOf({ option }));
  });
});
