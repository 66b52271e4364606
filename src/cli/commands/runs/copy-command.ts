/** `runs push` and `runs pull`: one command each way, copying runs whole between two stores. */
import { copyStoredRuns } from '../../../app/runs/copy-runs.js';
import { defineCommand, text, type Command, type Option } from '../../define-command.js';
import { storeLocationOf, storePathOf } from '../../locations.js';
import { storeOption } from '../../shared-options.js';
import { renderCopiedRuns } from './copy-lines.js';

const EXAMPLE_URL = 'postgresql://ann@db:5432/decidekit';

/** What differs between the two directions: the other store's option, and the words. */
interface CopyDirection {
  readonly verb: 'push' | 'pull';
  readonly other: 'from' | 'to';
  readonly summary: string;
  readonly description: string;
  readonly otherHelp: string;
}

/** A `runs push` / `runs pull` command: the other store is `--to` or `--from`, the store `--store`. */
export function copyRunsCommand(direction: CopyDirection): Command {
  const { verb, other } = direction;
  const outward = other === 'to';
  return defineCommand({
    name: `runs ${verb}`,
    summary: direction.summary,
    usage: `runs ${verb} RUN… --${other} STORE [--store PATH]`,
    description: direction.description,
    options: {
      [other]: text('STORE', direction.otherHelp, { required: true, example: EXAMPLE_URL }),
      store: storeOption,
    } as Record<'from' | 'to', Option<string>> & { store: typeof storeOption },
    positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'RUN…' },
    exitCodes:
      '0 copied or already there, 1 unknown run, a different run under the same id or a store that cannot be used, 2 usage error.',
    examples: [`decidekit runs ${verb} 20261130-0415 --${other} ${EXAMPLE_URL}`],
    async run({ values, positionals }, io) {
      const here = storePathOf(values.store, io);
      const there = storeLocationOf(values[other], io, `--${other}`);
      const [from, to] = outward ? [here, there] : [there, here];
      const copied = copyStoredRuns(from, to, positionals, {
        command: `runs ${verb}`,
        storeArg: outward ? values.store : values[other],
      });
      io.stdout.write(renderCopiedRuns(copied, `${verb}ed`, to));
      return 0;
    },
  });
}
