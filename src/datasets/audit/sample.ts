import { fileURLToPath } from 'node:url';

/** The bundled audit sample: `data/audits/` at the package root (same depth from src/ and dist/). */
export function sampleAuditPaths(): { readonly transcripts: string; readonly checks: string } {
  const dir = (name: string) => fileURLToPath(new URL(`../../../data/audits/${name}`, import.meta.url));
  return { transcripts: dir('transcripts.jsonl'), checks: dir('checks.json') };
}
