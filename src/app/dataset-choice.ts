/** Which Typed Decisions dataset a use case reads (bench, live, probe), and where its loader finds it. */
import { OptionError } from '../core/errors.js';
import { optionMention as option, words } from '../core/message-words.js';
import type { DatasetSource } from '../datasets/typed-decisions/load-bench-dataset.js';

/** `--dataset`: the bundled sample, the fetched Typed Decisions copy, or a file (absolute path). */
export type DatasetChoice =
  { readonly kind: 'sample' } | { readonly kind: 'typed-decisions' } | { readonly kind: 'path'; readonly path: string };

/** The loader's source for a `--dataset` choice; `typed-decisions` needs the cache folder. */
export function datasetSourceOf(choice: DatasetChoice, cacheDir: string | undefined): DatasetSource {
  switch (choice.kind) {
    case 'sample':
      return { kind: 'sample' };
    case 'typed-decisions':
      if (cacheDir === undefined)
        throw new OptionError(
          'cacheDir',
          words`the typed-decisions dataset is read from its cache folder: give ${option('cacheDir')}`,
        );
      return { kind: 'typed-decisions', cacheDir };
    case 'path':
      return { kind: 'path', path: choice.path };
  }
}
