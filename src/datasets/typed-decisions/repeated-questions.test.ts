import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../core/strict-json.js';
import type { QuestionSet } from '../../core/question.js';
import { RepeatedQuestions } from './repeated-questions.js';

const questions = '{"urgent":{"type":"noul","instructions":"Is it urgent?"}}';
const line = (rest: string, q = questions) =>
  `{"id":"c1","workflow":"support","state":{"a":1},"questions":${q}${rest}}`;
const set: QuestionSet = [['urgent', { type: 'noul', instructions: 'Is it urgent?' } as never]];

function remembered(): RepeatedQuestions {
  const known = new RepeatedQuestions();
  known.remember(line(',"gold":{}'), 'support', set);
  return known;
}

describe('RepeatedQuestions', () => {
  it('parses a line whose questions repeat a text checked before without them, with that question set', () => {
    const known = remembered();
    const parsed = known.parse(line(',"gold":{"urgent":{"label":"true"}},"split":"test"'));
    expect(parsed).not.toBeNull();
    expect(parsed!.questions).toBe(set);
    expect(parsed!.value).toEqual({
      id: 'c1',
      workflow: 'support',
      state: { a: 1 },
      questions: 0,
      gold: { urgent: { label: 'true' } },
      split: 'test',
    });
  });

  it('says where the questions text is in the line, for a second read to step over', () => {
    const text = line(',"gold":{}');
    const parsed = remembered().parse(text);
    expect(parsed).not.toBeNull();
    const [from, to] = parsed!.span;
    expect(text.slice(from, to)).toBe(questions);
  });

  it('leaves to the full check a line with other questions, another workflow, or nothing remembered', () => {
    const known = remembered();
    expect(known.parse(line(',"gold":{}', '{"urgent":{"type":"noul","instructions":"Urgent?"}}'))).toBeNull();
    expect(known.parse(line(',"gold":{}').replace('"support"', '"billing"'))).toBeNull();
    expect(new RepeatedQuestions().parse(line(',"gold":{}'))).toBeNull();
  });

  it('leaves to the full check a line that is not strict JSON outside its questions', () => {
    const known = remembered();
    for (const bad of [
      line(',"gold":{},"id":"again"'),
      line(',"gold":{'),
      line(',"gold":' + '['.repeat(600) + ']'.repeat(600)),
      line(',"gold":{}') + ' trailing',
      line('.5,"gold":{}'),
      line('e5,"gold":{}'),
      line('E0 ,"gold":{}'),
    ]) {
      expect(parseStrictJson(bad).ok).toBe(false);
      expect(known.parse(bad)).toBeNull();
    }
  });

  it('finds the questions only as a key of the row itself', () => {
    const known = remembered();
    const nested = `{"id":"c1","workflow":"support","state":{"questions":${questions}},"questions":0,"gold":{}}`;
    expect(known.parse(nested)).toBeNull();
    const inString = `{"id":"c1","workflow":"support","state":"\\"questions\\":${questions.replace(/"/g, '\\"')}","questions":0}`;
    expect(known.parse(inString)).toBeNull();
  });
});

describe('RepeatedQuestions against the full check', () => {
  it('never accepts a line the strict parse refuses, and reads what it reads', () => {
    const known = remembered();
    const base = line(',"gold":{"urgent":{"label":"true"}}');
    const pieces = ['{', '}', '[', ']', ',', ':', '"', '0', 'e', '.', '-', ' ', '\\', '"questions":', questions];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(base.length), fc.constantFrom(...pieces), fc.nat(3)), { maxLength: 3 }),
        (edits) => {
          let text = base;
          for (const [at, piece, cut] of edits) {
            const i = at % (text.length + 1);
            text = text.slice(0, i) + piece + text.slice(i + cut);
          }
          const fast = known.parse(text);
          if (fast === null) return true;
          const full = parseStrictJson(text);
          if (!full.ok) return false;
          const expected = { ...(full.value as Record<string, unknown>), questions: 0 };
          return JSON.stringify(fast.value) === JSON.stringify(expected);
        },
      ),
      { seed: 11, numRuns: 3000 },
    );
  });
});
