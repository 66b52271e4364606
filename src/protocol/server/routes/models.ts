/** `GET /v1/models`: the models served, the default first, as decision models (text only under `models-without-decisions`). */
import type http from 'node:http';
import { isGet, sendJson } from '../responses.js';
import type { ServerContext } from '../server-context.js';

export function serveModels(context: ServerContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (!isGet(context.metrics, req, res, '/v1/models')) return;
  const outputModalities = context.violations?.on.has('models-without-decisions') ? ['text'] : ['decisions'];
  sendJson(
    context.metrics,
    res,
    200,
    JSON.stringify({
      object: 'list',
      data: context.modelNames.map((id) => ({
        id,
        object: 'model',
        owned_by: 'decidekit',
        created: 0,
        meta: { default: id === context.defaultModel, description: context.models.get(id)!.description },
        architecture: { input_modalities: ['text'], output_modalities: outputModalities },
      })),
    }),
  );
}
