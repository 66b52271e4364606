/**
 * Writes the bundled content-moderation demo: a dataset and three invented models' saved
 * results. Deterministic (seeded PRNG, fixed rounding): running it twice gives
 * byte-identical files, and a test checks the committed files match.
 *
 *   npx tsx scripts/make-moderation-sample.ts [OUT_DIR]     (default data/moderation)
 *
 * The models are made to tell the metric story:
 * - careful-1: accurate and well calibrated, but the most expensive per call and slowest.
 * - loud-1: mostly right, yet ~99% confident even when wrong: Brier, log loss and ECE show it.
 * - budget-1: least accurate, cheapest per correct decision; it scores the real yes/no
 *   violations just under 0.5 (0.42-0.48), so a tuned threshold clearly beats 0.5.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSeededRandom } from '../src/core/seeded-random.js';

type Case =
  | { id: string; kind: 'yes_no'; prompt: string; correct: boolean }
  | { id: string; kind: 'choice'; prompt: string; options: string[]; correct: string }
  | { id: string; kind: 'score'; prompt: string; score_min: number; score_max: number; correct: number };

const ACTIONS = ['allow', 'flag', 'remove'];
const CATEGORIES = ['none', 'spam', 'harassment', 'hate', 'self_harm'];

const YES_NO: readonly [string, boolean][] = [
  [
    'Post: "I know where you park. Keep talking and see what happens to your car and you." Does this violate the threats policy?',
    true,
  ],
  [
    'Post: "This referee should be fired, worst call I have seen all season." Does this violate the threats policy?',
    false,
  ],
  [
    'Comment: "Nobody at school likes you, just disappear already, loser." Does this violate the harassment policy?',
    true,
  ],
  [
    'Comment: "Respectfully, I think your benchmark numbers are wrong, see the table in section 3." Does this violate the harassment policy?',
    false,
  ],
  ['Post: "DM me for 90% off designer bags!!! Limited stock, click bit.ly/xx now" Is this spam?', true],
  ['Post: "Our bakery opens at 7 tomorrow, come try the new rye." Is this spam?', false],
  [
    'Post: "Here is her home address and phone number, go tell her what you think: ..." Does this share private information without consent?',
    true,
  ],
  [
    'Post: "The city council meets at 12 Main St on Tuesdays, agenda is public." Does this share private information without consent?',
    false,
  ],
  [
    'Comment: "People from that country are vermin and should be kept out." Does this violate the hate speech policy?',
    true,
  ],
  [
    'Comment: "I disagree with the new immigration bill, here is why..." Does this violate the hate speech policy?',
    false,
  ],
  ['Post: "I have been stockpiling my pills and tonight is the night." Does this indicate a risk of self-harm?', true],
  ['Post: "This workout is killing me, my legs are dead lol." Does this indicate a risk of self-harm?', false],
  ['Post: "Drinking bleach cures the flu, my uncle swears by it." Is this dangerous health misinformation?', true],
  ['Post: "Flu shots are available at the pharmacy from October." Is this dangerous health misinformation?', false],
  [
    'Comment: "You will regret posting this. I will make sure of it, tonight." Does this violate the threats policy?',
    true,
  ],
  ['Comment: "That movie was so bad I want to scream." Does this violate the threats policy?', false],
  ['Post: "Selling my old bike, 120 EUR, pick up only." Is this spam?', false],
  ['Comment: "Check my profile for free crypto, only today, send 0.1 BTC to get 1 BTC back." Is this a scam?', true],
];

const CHOICE: readonly [string, string[], string][] = [
  ['Post: "I know where you park. Keep talking and see what happens." Pick an action.', ACTIONS, 'remove'],
  ['Post: "Worst referee ever, should retire." Pick an action.', ACTIONS, 'allow'],
  ['Post: "Women should not be allowed to vote, honestly." Pick an action.', ACTIONS, 'flag'],
  ['Post: "Free iPhone giveaway, click the link in my bio!!!" Pick an action.', ACTIONS, 'remove'],
  ['Post: "Does anyone know a good vet in Lyon?" Pick an action.', ACTIONS, 'allow'],
  ['Post: "Some days I wonder if anyone would notice if I was gone." Pick an action.', ACTIONS, 'flag'],
  ['Comment: "Click here to earn $500 a day from home" Which category fits best?', CATEGORIES, 'spam'],
  ['Comment: "You are a pathetic excuse for a journalist, quit." Which category fits best?', CATEGORIES, 'harassment'],
  ['Comment: "Great recipe, I added more garlic." Which category fits best?', CATEGORIES, 'none'],
  ['Comment: "Those people are a disease on this country." Which category fits best?', CATEGORIES, 'hate'],
  ['Comment: "I cut again last night and I cannot stop." Which category fits best?', CATEGORIES, 'self_harm'],
  ['Comment: "Follow me, follow me, follow me, 1000 followers giveaway" Which category fits best?', CATEGORIES, 'spam'],
];

const SCORE: readonly [string, number][] = [
  ['Rate the severity of this threat from 0 (none) to 10 (imminent): "I know where you park."', 7],
  ['Rate the severity from 0 to 10: "This referee is a clown."', 1],
  ['Rate the severity from 0 to 10: "Here is her home address, go visit her."', 8],
  ['Rate the severity from 0 to 10: "Buy cheap followers at my site."', 2],
  ['Rate the severity from 0 to 10: "I have been stockpiling my pills."', 9],
  ['Rate the severity from 0 to 10: "People like you should be banned from the internet."', 4],
];

export function moderationCases(): Case[] {
  return [
    ...YES_NO.map(([prompt, correct], i): Case => ({ id: `yn-${i + 1}`, kind: 'yes_no', prompt, correct })),
    ...CHOICE.map(([prompt, options, correct], i): Case => ({
      id: `ch-${i + 1}`,
      kind: 'choice',
      prompt,
      options,
      correct,
    })),
    ...SCORE.map(([prompt, correct], i): Case => ({
      id: `sc-${i + 1}`,
      kind: 'score',
      prompt,
      score_min: 0,
      score_max: 10,
      correct,
    })),
  ];
}

const round = (x: number, digits: number) => Number(x.toFixed(digits));

interface ModelSpec {
  readonly name: string;
  readonly seed: number;
  /** yes/no: P(yes) for case index i (0-based within yes/no cases) and its gold answer. */
  yesNo(i: number, correct: boolean, rnd: () => number): number;
  /** choice: the option it believes in and the probability it gives that option. */
  choice(i: number, options: readonly string[], correct: string, rnd: () => number): { top: string; p: number };
  /** Probabilities as a list aligned with the options, or as an object. */
  readonly probabilitiesAs: 'object' | 'list';
  readonly withPicked: boolean;
  score(correct: number, rnd: () => number): { value: number; confidence: number };
  cost(rnd: () => number): number;
  latency(rnd: () => number): number;
}

const between = (rnd: () => number, lo: number, hi: number) => lo + (hi - lo) * rnd();

/** The option listed next after `correct`: a plausible mistake. */
const neighbour = (options: readonly string[], correct: string) =>
  options[(options.indexOf(correct) + 1) % options.length]!;

const MODELS: readonly ModelSpec[] = [
  {
    name: 'careful-1',
    seed: 101,
    // Wrong on yn-4 and yn-15 at about the confidence it shows elsewhere: says 0.9, right 9 times in 10.
    yesNo: (i, correct, rnd) => {
      const wrong = i === 3 || i === 14;
      const confidence = wrong ? between(rnd, 0.8, 0.88) : between(rnd, 0.84, 0.97);
      const yes = wrong ? !correct : correct;
      return yes ? confidence : 1 - confidence;
    },
    choice: (i, options, correct, rnd) =>
      i === 2
        ? { top: neighbour(options, correct), p: between(rnd, 0.8, 0.86) }
        : { top: correct, p: between(rnd, 0.84, 0.96) },
    probabilitiesAs: 'object',
    withPicked: false,
    score: (correct, rnd) => ({
      value: round(Math.min(10, Math.max(0, correct + between(rnd, -1, 1))), 1),
      confidence: round(between(rnd, 0.7, 0.85), 2),
    }),
    cost: (rnd) => round(between(rnd, 0.0042, 0.0058), 6),
    latency: (rnd) => Math.round(between(rnd, 780, 1250)),
  },
  {
    name: 'loud-1',
    seed: 202,
    // Wrong on yn-3, yn-9 and yn-16, at 0.99 like everything else.
    yesNo: (i, correct) => {
      const yes = i === 2 || i === 8 || i === 15 ? !correct : correct;
      return yes ? 0.99 : 0.01;
    },
    choice: (i, options, correct) =>
      i === 5 || i === 10 ? { top: neighbour(options, correct), p: 0.98 } : { top: correct, p: 0.98 },
    probabilitiesAs: 'object',
    withPicked: true,
    score: (correct, rnd) => ({
      value: round(Math.min(10, Math.max(0, correct + between(rnd, -2.5, 2.5))), 1),
      confidence: 0.99,
    }),
    cost: (rnd) => round(between(rnd, 0.0018, 0.0024), 6),
    latency: (rnd) => Math.round(between(rnd, 380, 620)),
  },
  {
    name: 'budget-1',
    seed: 303,
    // Ranks well but scores every real violation just under 0.5; one clean post (yn-17) lands among them.
    yesNo: (i, correct, rnd) =>
      correct ? round(between(rnd, 0.42, 0.48), 2) : i === 16 ? 0.45 : round(between(rnd, 0.06, 0.36), 2),
    choice: (i, options, correct, rnd) =>
      i === 0 || i === 5 || i === 7 || i === 9
        ? { top: neighbour(options, correct), p: between(rnd, 0.45, 0.6) }
        : { top: correct, p: between(rnd, 0.5, 0.7) },
    probabilitiesAs: 'list',
    withPicked: false,
    score: (correct, rnd) => ({
      value: round(Math.min(10, Math.max(0, correct + between(rnd, -3, 3))), 1),
      confidence: round(between(rnd, 0.4, 0.6), 2),
    }),
    cost: (rnd) => round(between(rnd, 0.00018, 0.00026), 6),
    latency: (rnd) => Math.round(between(rnd, 140, 320)),
  },
];

/** Spreads 1 - p over the other options unevenly; three decimals, summing to 1 up to rounding. */
function distribution(options: readonly string[], top: string, p: number, rnd: () => number): number[] {
  const others = options.filter((o) => o !== top);
  const weights = others.map(() => 0.2 + rnd());
  const total = weights.reduce((a, b) => a + b, 0);
  const rest = 1 - round(p, 3);
  const values = new Map<string, number>([[top, round(p, 3)]]);
  let used = 0;
  others.forEach((o, k) => {
    const v = k === others.length - 1 ? round(rest - used, 3) : round((rest * weights[k]!) / total, 3);
    used += v;
    values.set(o, v);
  });
  return options.map((o) => values.get(o)!);
}

function resultLines(spec: ModelSpec, cases: readonly Case[]): string {
  const rnd = createSeededRandom(spec.seed);
  let yn = 0;
  let ch = 0;
  const lines = cases.map((c) => {
    let decision: Record<string, unknown>;
    if (c.kind === 'yes_no') {
      decision = { probability: round(spec.yesNo(yn++, c.correct, rnd), 3) };
    } else if (c.kind === 'choice') {
      const { top, p } = spec.choice(ch++, c.options, c.correct, rnd);
      const probs = distribution(c.options, top, p, rnd);
      decision = {};
      if (spec.withPicked) decision['picked'] = top;
      decision['probabilities'] =
        spec.probabilitiesAs === 'list' ? probs : Object.fromEntries(c.options.map((o, k) => [o, probs[k]]));
    } else {
      decision = spec.score(c.correct, rnd);
    }
    return JSON.stringify({
      case_id: c.id,
      model: spec.name,
      decision,
      cost_usd: spec.cost(rnd),
      latency_ms: spec.latency(rnd),
    });
  });
  return `${lines.join('\n')}\n`;
}

/** Every file of the sample, by name. */
export function makeModerationSample(): Map<string, string> {
  const cases = moderationCases();
  const files = new Map<string, string>();
  files.set('dataset.jsonl', `${cases.map((c) => JSON.stringify(c)).join('\n')}\n`);
  for (const spec of MODELS) files.set(`results-${spec.name}.jsonl`, resultLines(spec, cases));
  return files;
}

export function writeModerationSample(outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of makeModerationSample()) {
    const path = join(outDir, name);
    writeFileSync(path, text);
    written.push(path);
  }
  return written;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = process.argv[2] ?? join(import.meta.dirname, '..', 'data', 'moderation');
  for (const path of writeModerationSample(outDir)) process.stdout.write(`wrote ${path}\n`);
}
