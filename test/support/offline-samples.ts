/**
 * The bundled offline samples (data/moderation, data/inbox) as command-line arguments, and
 * a temporary folder to place files in, for the end-to-end tests of the offline commands.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolderRemovedAfterAll } from '../../src/datasets/test-support/temp-folders.js';

export const DATA = join(import.meta.dirname, '..', '..', 'data');
export const MODERATION_DATASET = join(DATA, 'moderation', 'dataset.jsonl');
export const CAREFUL_RESULTS = join(DATA, 'moderation', 'results-careful-1.jsonl');
const INBOX = join(DATA, 'inbox');

/** `actions` over the inbox sample, with `spec` and `results` in place of its own. */
export function inboxActionsArgv(
  results: string = join(INBOX, 'results-fieldsharp-1.jsonl'),
  spec: string = join(INBOX, 'spec.json'),
): string[] {
  return ['actions', '--dataset', join(INBOX, 'dataset.jsonl'), '--spec', spec, '--results', results];
}

/** A temporary folder removed after the file's tests, and `place(name, content)` writing a file in it. */
export function tempFolder(prefix: string): {
  readonly dir: string;
  place(name: string, content: string | Uint8Array): string;
} {
  const dir = tempFolderRemovedAfterAll(`decidekit-${prefix}-`);
  return {
    dir,
    place(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
  };
}
