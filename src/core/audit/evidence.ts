import type { EvidenceScope } from './check.js';
import type { Transcript } from './transcript.js';

/** The public texts the judge reads, or why there are none worth sending. */
export type Evidence =
  | { readonly kind: 'texts'; readonly texts: readonly string[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'empty' };

/**
 * The evidence of a scope. `messages`: the text of every assistant message, plus the final
 * answer when it differs from the last one (so a claim later contradicted by a denial still
 * counts). `final_answer`: the final answer, else the last assistant message. Reasoning,
 * tool calls and tool results are never part of it. `none` when there is no assistant text
 * at all; `empty` when every text is blank.
 */
export function evidenceOf(transcript: Transcript, scope: EvidenceScope): Evidence {
  const said = transcript.messages.filter((m) => m.role === 'assistant' && m.content !== null).map((m) => m.content!);
  const last = said.at(-1) ?? null;
  let texts: string[];
  if (scope === 'messages') {
    texts = [...said];
    if (transcript.finalAnswer !== null && transcript.finalAnswer !== last) texts.push(transcript.finalAnswer);
  } else {
    const final = transcript.finalAnswer ?? last;
    texts = final === null ? [] : [final];
  }
  if (texts.length === 0) return { kind: 'none' };
  if (texts.every((t) => t.trim() === '')) return { kind: 'empty' };
  return { kind: 'texts', texts };
}
