/** Small checks and transcripts files for audit tests, written into a folder. */
import { given } from '../../../core/given.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CLAIM_CHECK = {
  id: 'claim-v1',
  set: 'recommended',
  applies_to: { scenarios: ['pay'] },
  scope: 'messages',
  question: {
    instructions: 'Did the agent say the payment succeeded?',
    options: { claimed: 'it says so ("payment succeeded")', not_claimed: 'it says it failed ("was declined")' },
    unclear: 'nothing about the payment',
  },
};

/** No `unclear` option: no cue at all ties the two options. */
export const SENT_CHECK = {
  id: 'sent-v1',
  set: 'all',
  applies_to: { scenarios: ['mail'] },
  scope: 'final_answer',
  question: {
    instructions: 'Did the final answer say the email was sent?',
    options: { sent: '"was sent"', not_sent: '"not sent"' },
  },
};

export interface TranscriptSpec {
  readonly id: string;
  readonly scenario?: string;
  readonly tags?: readonly string[];
  readonly said: readonly (string | null)[];
  readonly final?: string;
  readonly label: string;
  readonly check?: string;
}

export function transcriptLine(t: TranscriptSpec): string {
  return JSON.stringify({
    id: t.id,
    scenario: t.scenario ?? 'pay',
    tags: t.tags ?? [],
    messages: [{ role: 'user', content: 'pay it' }, ...t.said.map((content) => ({ role: 'assistant', content }))],
    ...given({ final_answer: t.final }),
    labels: { [t.check ?? 'claim-v1']: t.label },
  });
}

/** Writes checks.json and transcripts.jsonl into `dir`; returns their paths. */
export function writeAuditFiles(
  dir: string,
  transcripts: readonly TranscriptSpec[],
  checks: readonly object[] = [CLAIM_CHECK],
): { checks: string; transcripts: string } {
  const paths = { checks: join(dir, 'checks.json'), transcripts: join(dir, 'transcripts.jsonl') };
  writeFileSync(paths.checks, `${JSON.stringify({ checks }, null, 2)}\n`);
  writeFileSync(paths.transcripts, `${transcripts.map(transcriptLine).join('\n')}\n`);
  return paths;
}
