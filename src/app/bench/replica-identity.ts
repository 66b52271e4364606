/**
 * Replicas of one run must serve the same model: each is asked for its models
 * (`GET /v1/models`) before anything is sent, and a mix is refused, naming both. A replica
 * that does not answer the question is left to the run (set aside there if it fails).
 */
import { OptionError } from '../../core/errors.js';
import { optionMention as option, words } from '../../core/message-words.js';
import { listModels } from '../../protocol/client/server-gets.js';

/** The decision models a replica lists, sorted, or null when it did not say. */
async function decisionModelsAt(baseUrl: string, apiKey: string | undefined): Promise<string[] | null> {
  try {
    const models = await listModels(baseUrl, { apiKey, timeoutMs: 10_000 });
    return models
      .filter((m) => m.decisions)
      .map((m) => m.id)
      .sort();
  } catch {
    return null;
  }
}

/** Throws when two replicas list different decision models. */
export async function refuseMixedReplicas(
  replicas: readonly { readonly baseUrl: string; readonly name: string }[],
  apiKey: string | undefined,
): Promise<void> {
  const listed = await Promise.all(replicas.map((r) => decisionModelsAt(r.baseUrl, apiKey)));
  let first: { name: string; models: string[] } | null = null;
  for (let i = 0; i < replicas.length; i++) {
    const models = listed[i];
    if (models === null || models === undefined) continue;
    if (first === null) first = { name: replicas[i]!.name, models };
    else if (models.join('\n') !== first.models.join('\n'))
      throw new OptionError(
        'baseUrl',
        words`replicas of one run must serve the same model: ${first.name} serves ${shown(first.models)}, ${replicas[i]!.name} serves ${shown(models)}; give ${option('baseUrl')} only for servers of one model`,
      );
  }
}

function shown(models: readonly string[]): string {
  return models.length === 0 ? 'no decision model' : models.map((m) => JSON.stringify(m)).join(', ');
}
