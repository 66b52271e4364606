/** customer_service: a support conversation and the account behind it. */
import type { Prng } from './prng.js';
import { cents, noulLogits, scoreLogits, type GeneratedCase } from './teacher.js';

type Category = 'account' | 'billing' | 'delivery' | 'refund' | 'technical';
type Situation = 'answer' | 'info' | 'refund' | 'human' | 'settled';

const SITUATION_WEIGHTS: Record<Category, Record<Situation, number>> = {
  account: { answer: 0.4, info: 0.2, refund: 0.02, human: 0.25, settled: 0.13 },
  billing: { answer: 0.25, info: 0.2, refund: 0.25, human: 0.2, settled: 0.1 },
  delivery: { answer: 0.3, info: 0.2, refund: 0.15, human: 0.2, settled: 0.15 },
  refund: { answer: 0.08, info: 0.17, refund: 0.45, human: 0.25, settled: 0.05 },
  technical: { answer: 0.3, info: 0.3, refund: 0.03, human: 0.25, settled: 0.12 },
};

interface Slots {
  order: string;
  amount: string;
  plan: string;
  date: string;
  product: string;
  feature: string;
}

type Template = (s: Slots) => string[];

/** Opening customer message(s) per category and situation; `settled` threads end resolved. */
const OPENINGS: Record<Category, Record<Situation, readonly Template[]>> = {
  account: {
    answer: [
      (s) => [`How do I add a second admin to our workspace on the ${s.plan} plan?`],
      (s) => [`Where can I change the email address on my account? I moved from my old ${s.product} address.`],
    ],
    info: [() => ["I can't get into my account."], () => ['Something is wrong with my login, please fix it.']],
    refund: [
      (s) => [
        `I downgraded from ${s.plan} last month but was still billed ${s.amount} for the higher tier. I want that difference back.`,
      ],
    ],
    human: [
      (s) => [
        `Our former admin left the company and nobody can access the ${s.plan} workspace. We need ownership transferred to me today; I can send a letter from our CFO.`,
      ],
      () => ['Please delete every record you hold about me under GDPR and confirm in writing.'],
    ],
    settled: [
      () => [
        'I was locked out after too many attempts.',
        'AGENT: I have sent a reset link to the address on file.',
        "Got it, I'm back in. Thanks!",
      ],
    ],
  },
  billing: {
    answer: [
      (s) => [`When does my ${s.plan} subscription renew, and will the price change?`],
      (s) => [`Can I get a copy of the invoice for ${s.date}? Our accounts team needs it.`],
    ],
    info: [
      () => ["There is a charge I don't recognise. Can you look into it?"],
      (s) => [`My bill looks wrong this month, it's more than ${s.amount}?`],
    ],
    refund: [
      (s) => [
        `I was charged twice for my ${s.plan} subscription on ${s.date}: ${s.amount} each time. Please refund the duplicate.`,
      ],
      (s) => [`You charged ${s.amount} after I cancelled on ${s.date}; the cancellation email is attached.`],
    ],
    human: [
      (s) => [
        `We are disputing the last three invoices (${s.amount} each) because the contract price was never applied. I need someone who can approve a credit.`,
      ],
      () => ['Your price increase breaks our signed agreement. I want to talk to someone in charge of our account.'],
    ],
    settled: [
      (s) => [
        `Why was I charged ${s.amount}?`,
        `AGENT: That was the annual renewal of your ${s.plan} plan; the receipt is in your billing page.`,
        'Ah right, I forgot it was annual. All good.',
      ],
    ],
  },
  delivery: {
    answer: [
      (s) => [`Where is my order ${s.order}? The tracking page says "label created".`],
      (s) => [`Can I change the delivery address for order ${s.order} before it ships?`],
    ],
    info: [() => ['My package never came.'], () => ['The delivery is wrong, what are you going to do about it?']],
    refund: [
      (s) => [
        `Order ${s.order} arrived with the ${s.product} smashed; photos attached. I want a refund of ${s.amount}.`,
      ],
      (s) => [`Tracking for ${s.order} has been stuck since ${s.date}; the carrier says it is lost. Please refund me.`],
    ],
    human: [
      (s) => [
        `This is the fourth replacement ${s.product} that arrived damaged. I need someone to sort out a proper solution, not another label.`,
      ],
      (s) => [
        `Your courier left order ${s.order} (${s.amount}) at the wrong address and the neighbour refuses to hand it over.`,
      ],
    ],
    settled: [
      (s) => [
        `Is order ${s.order} on its way?`,
        'AGENT: Yes, it is out for delivery today.',
        'It just arrived, thank you!',
      ],
    ],
  },
  refund: {
    answer: [
      (s) => [`What is your refund policy for the ${s.product} if I haven't opened it?`],
      () => ['How long does a refund usually take to reach my card?'],
    ],
    info: [() => ['I want my money back.'], (s) => [`Refund please, the ${s.product} isn't what I expected.`]],
    refund: [
      (s) => [
        `I returned the ${s.product} on ${s.date} (return label attached) and still haven't received the ${s.amount} refund.`,
      ],
      (s) => [`I cancelled within the 14-day trial but was charged ${s.amount}. Please refund it.`],
    ],
    human: [
      (s) => [
        `I want a full refund of ${s.amount} for the year even though it is past the refund window, because the ${s.feature} feature never worked.`,
      ],
      (s) => [`I will take this to small claims court unless the ${s.amount} is refunded.`],
    ],
    settled: [
      (s) => [
        `Did my refund for order ${s.order} go through?`,
        `AGENT: Yes, ${s.amount} was refunded on ${s.date}.`,
        'Perfect, I see it now.',
      ],
    ],
  },
  technical: {
    answer: [
      (s) => [`How do I export my data from ${s.feature} to CSV?`],
      (s) => [`Does the ${s.feature} feature work with single sign-on?`],
    ],
    info: [() => ["It's not working."], (s) => [`The ${s.feature} page is broken again.`]],
    refund: [
      (s) => [
        `${s.feature} has been down for the whole billing period since ${s.date}; I want the ${s.amount} for this month back.`,
      ],
    ],
    human: [
      (s) => [
        `Since your update on ${s.date} ${s.feature} corrupts our exports and we lost a day of work. We need an engineer on this.`,
      ],
      (s) => [
        `Our whole team is blocked: ${s.feature} returns error 500 for every request, and we have a launch tomorrow.`,
      ],
    ],
    settled: [
      (s) => [
        `${s.feature} was not loading this morning.`,
        'AGENT: We had a brief outage; it has been fixed. Could you try again?',
        'Yes, it works now. Thanks.',
      ],
    ],
  },
};

const PLANS = ['Starter', 'Pro', 'Team', 'Business'];
const PRODUCTS = ['coffee grinder', 'desk lamp', 'headset', 'standing desk', 'router', 'blender'];
const FEATURES = ['Reports', 'Sync', 'Scheduler', 'Invoices', 'Dashboard', 'API'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June'];

function slots(rng: Prng): Slots {
  return {
    order: `A-${rng.int(1000, 9999)}`,
    amount: `$${rng.pick([9.99, 19, 29, 49.5, 79, 120, 249, 399])}`,
    plan: rng.pick(PLANS),
    date: `${rng.pick(MONTHS)} ${rng.int(1, 28)}`,
    product: rng.pick(PRODUCTS),
    feature: rng.pick(FEATURES),
  };
}

/** Phrases that show frustration; the strongest ones also signal that the customer may leave. */
function frustrationSuffix(rng: Prng, f: number): string {
  if (f > 0.82)
    return ` ${rng.pick(["If this isn't fixed today I'm cancelling.", "I'll dispute the charge with my bank if I have to.", 'We are already looking at other providers.'])}`;
  if (f > 0.65)
    return ` ${rng.pick(["This is the third time I'm contacting you about this.", 'Honestly this is unacceptable.', "I'm very disappointed."])}`;
  if (f > 0.45)
    return ` ${rng.pick(['This is frustrating.', 'I already explained this once.', 'Please sort it out.'])}`;
  if (f < 0.2) return ` ${rng.pick(['No rush, thanks!', 'Thanks in advance.', ''])}`;
  return '';
}

export function generateCustomerService(rng: Prng): GeneratedCase {
  const category = rng.weighted<Category>({ account: 0.2, billing: 0.25, delivery: 0.2, refund: 0.15, technical: 0.2 });
  const situation = rng.weighted(SITUATION_WEIGHTS[category]);
  const frustration = Math.pow(rng.next(), situation === 'settled' ? 2.5 : situation === 'human' ? 0.7 : 1.2);
  const tier = rng.weighted({ free: 0.3, pro: 0.35, business: 0.22, enterprise: 0.13 });
  const seats = tier === 'free' || tier === 'pro' ? 1 : tier === 'business' ? rng.int(5, 60) : rng.int(80, 2500);
  const tenureMonths = rng.int(1, 96);
  const monthly = tier === 'free' ? 0 : tier === 'pro' ? 19 : tier === 'business' ? 12 * seats : 9 * seats;
  const ltv = cents(monthly * tenureMonths * rng.uniform(0.8, 1.1));

  const s = slots(rng);
  const lines = rng.pick(OPENINGS[category][situation])(s);
  const thread = lines.map((line, i) => {
    if (line.startsWith('AGENT: ')) return { role: 'agent', text: line.slice('AGENT: '.length) };
    const last = i === lines.length - 1 || lines.length === 1;
    return {
      role: 'customer',
      text: last && situation !== 'settled' ? `${line}${frustrationSuffix(rng, frustration)}` : line,
    };
  });
  if (situation === 'info' && rng.chance(0.5)) {
    thread.push({
      role: 'agent',
      text: 'Sorry to hear that. Could you tell me your order number or the email on the account?',
    });
    thread.push({ role: 'customer', text: `I don't have it here.${frustrationSuffix(rng, frustration)}` });
  }

  const is = (c: Category) => (category === c ? 1 : 0);
  const sit = (x: Situation) => (situation === x ? 1 : 0);
  const enterprise = tier === 'enterprise' ? 1 : 0;
  const angry = Math.max(0, frustration - 0.5) * 2;
  const priorTickets = rng.poisson(0.4 + 3 * frustration);

  const logits: Record<string, number[]> = {
    // answer_directly, close_no_action, escalate_to_human, execute_refund, request_information
    action: [
      2.4 * sit('answer') + 0.2,
      2.8 * sit('settled'),
      2.4 * sit('human') + 1.4 * angry + 0.4 * enterprise,
      2.4 * sit('refund') + 0.3 * is('refund'),
      2.4 * sit('info') + 0.2,
    ],
    // account, billing, delivery, refund, technical
    category: [
      3.4 * is('account'),
      3.4 * is('billing') + 0.8 * is('refund'),
      3.4 * is('delivery'),
      3.4 * is('refund') + 1.6 * sit('refund') * (is('billing') + is('delivery')),
      3.4 * is('technical'),
    ],
    churn_risk: scoreLogits(3.4 * frustration + 0.15 * Math.min(priorTickets, 4) - 0.6 * sit('settled'), 4, 0.9),
    needs_human: noulLogits(
      -1.5 + 2.7 * sit('human') + 1.6 * angry + 0.5 * enterprise - 1.4 * sit('settled') - 0.4 * sit('answer'),
    ),
    urgency: scoreLogits(
      0.7 +
        1.7 * frustration +
        0.35 * (is('delivery') + is('billing')) +
        0.4 * enterprise +
        0.3 * sit('human') -
        1.0 * sit('settled'),
      4,
      0.7,
    ),
  };

  return {
    state: {
      account: { tier, tenure_months: tenureMonths, lifetime_value_usd: ltv, prior_tickets_90d: priorTickets, seats },
      thread,
    },
    factors: { category, situation, frustration, tier },
    logits,
  };
}
