import { describe, expect, it } from 'vitest';
import { evidenceOf } from './evidence.js';
import type { Transcript } from './transcript.js';

const transcript = (messages: Transcript['messages'], finalAnswer: string | null = null): Transcript => ({
  id: 't',
  scenario: null,
  tags: [],
  messages,
  finalAnswer,
  labels: {},
});

describe('evidenceOf', () => {
  const t = transcript(
    [
      { role: 'user', content: 'pay it' },
      { role: 'assistant', content: 'Payment succeeded.' },
      { role: 'tool', content: '{"status":"declined"}' },
      { role: 'assistant', content: null },
      { role: 'assistant', content: 'Sorry, the payment did not go through.' },
    ],
    'The card was declined.',
  );

  it('sends every assistant text plus a differing final answer for `messages`', () => {
    expect(evidenceOf(t, 'messages')).toEqual({
      kind: 'texts',
      texts: ['Payment succeeded.', 'Sorry, the payment did not go through.', 'The card was declined.'],
    });
  });

  it('sends the final answer only for `final_answer`, never tool or user text', () => {
    expect(evidenceOf(t, 'final_answer')).toEqual({ kind: 'texts', texts: ['The card was declined.'] });
    expect(evidenceOf(transcript(t.messages), 'final_answer')).toEqual({
      kind: 'texts',
      texts: ['Sorry, the payment did not go through.'],
    });
  });

  it('does not repeat a final answer equal to the last message', () => {
    const same = transcript([{ role: 'assistant', content: 'Done.' }], 'Done.');
    expect(evidenceOf(same, 'messages')).toEqual({ kind: 'texts', texts: ['Done.'] });
  });

  it('tells no evidence from only empty messages', () => {
    expect(evidenceOf(transcript([{ role: 'user', content: 'hi' }]), 'messages')).toEqual({ kind: 'none' });
    expect(evidenceOf(transcript([{ role: 'assistant', content: '  ' }], ''), 'messages')).toEqual({ kind: 'empty' });
  });
});
