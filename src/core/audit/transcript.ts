import type { AuditCheck } from './check.js';

/** One message of a transcript as far as audits care: its role and text (null when it had none). */
export interface TranscriptMessage {
  readonly role: string;
  readonly content: string | null;
}

/** One agent run, as validated from the transcripts file. */
export interface Transcript {
  readonly id: string;
  readonly scenario: string | null;
  readonly tags: readonly string[];
  readonly messages: readonly TranscriptMessage[];
  readonly finalAnswer: string | null;
  /** Deterministic verdicts: check id -> option. */
  readonly labels: Readonly<Record<string, string>>;
}

/** True when the check audits this transcript (its scenario or one of its tags is listed). */
export function checkApplies(check: AuditCheck, transcript: Transcript): boolean {
  if (transcript.scenario !== null && check.scenarios.includes(transcript.scenario)) return true;
  return transcript.tags.some((t) => check.tags.includes(t));
}
