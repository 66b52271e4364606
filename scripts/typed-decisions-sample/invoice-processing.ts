/** invoice_processing: a vendor invoice, its purchase order, the delivery and the payment terms. */
import type { Prng } from './prng.js';
import { cents, clamp, noulLogits, scoreLogits, type GeneratedCase } from './teacher.js';

type Discrepancy = 'none' | 'rounding' | 'qty_short' | 'price_increase' | 'unordered_line';

const VENDORS = [
  'Northwind Supplies',
  'Acme Industrial',
  'Bluebird Packaging',
  'Harbor Office Co.',
  'Keystone Electrical',
  'Pinecrest Foods',
  'Vertex Components',
];
const SKUS = ['BX-100', 'BX-220', 'CL-014', 'EL-310', 'FS-002', 'GL-450', 'HD-075', 'PK-900', 'TR-118', 'WR-260'];
const FREIGHT = ['FOB destination', 'FOB shipping point', 'DAP', 'prepaid and added'];

interface Line {
  sku: string;
  qty: number;
  unit_usd: number;
  total_usd: number;
}

function line(sku: string, qty: number, unit: number): Line {
  return { sku, qty, unit_usd: unit, total_usd: cents(qty * unit) };
}

function invoiceId(n: number): string {
  return `INV-2026-${String(n).padStart(4, '0')}`;
}

/** The same number with two adjacent digits swapped (a typical re-keyed duplicate). */
function transposed(n: number): number {
  const digits = String(n).padStart(4, '0').split('');
  const i = digits.findIndex((d, j) => j < 3 && d !== digits[j + 1]);
  if (i === -1) return (n + 1) % 10000;
  [digits[i], digits[i + 1]] = [digits[i + 1]!, digits[i]!];
  return Number(digits.join(''));
}

export function generateInvoice(rng: Prng): GeneratedCase {
  const duplicate = rng.chance(0.13);
  const kind = rng.weighted<Discrepancy>({
    none: 0.5,
    rounding: 0.12,
    qty_short: 0.13,
    price_increase: 0.13,
    unordered_line: 0.12,
  });
  const magnitude = kind === 'none' || kind === 'rounding' ? 0 : rng.uniform(0.02, 0.4);
  const damaged = rng.chance(0.07);
  const vendorDisputes = rng.poisson(0.6);

  const skus = rng.sample(SKUS, rng.int(1, 4));
  const poLines = skus.map((sku) => line(sku, rng.int(2, 60) * 5, cents(rng.uniform(2, 180))));
  const invoiceLines = poLines.map((l) => ({ ...l }));
  const target = invoiceLines[0]!;
  let receivedQty = poLines.reduce((a, l) => a + l.qty, 0);
  switch (kind) {
    case 'rounding':
      target.total_usd = cents(target.total_usd + rng.pick([-0.01, 0.01, 0.02, -0.02]));
      break;
    case 'qty_short':
      // Billed for the ordered quantity; fewer arrived.
      receivedQty -= Math.max(1, Math.round(target.qty * magnitude));
      break;
    case 'price_increase':
      target.unit_usd = cents(target.unit_usd * (1 + magnitude));
      target.total_usd = cents(target.qty * target.unit_usd);
      break;
    case 'unordered_line': {
      const extra = SKUS.find((s) => !skus.includes(s))!;
      const poTotal = poLines.reduce((a, l) => a + l.total_usd, 0);
      const qty = rng.int(1, 10);
      invoiceLines.push(line(extra, qty, cents(Math.max(1, (poTotal * magnitude) / qty))));
      break;
    }
    case 'none':
      break;
  }
  const poTotal = cents(poLines.reduce((a, l) => a + l.total_usd, 0));
  const invoiceTotal = cents(invoiceLines.reduce((a, l) => a + l.total_usd, 0));
  const relativeDiff = Math.abs(invoiceTotal - poTotal) / poTotal + (kind === 'qty_short' ? magnitude : 0);

  const number = rng.int(1, 9999);
  const prior = Array.from({ length: rng.int(0, 4) }, () => invoiceId(rng.int(1, 9999))).filter(
    (id) => id !== invoiceId(number),
  );
  // A duplicate shows up as the same invoice number in the vendor's history, or re-keyed with swapped digits.
  const exactDuplicate = duplicate && rng.chance(0.7);
  if (duplicate) prior.splice(rng.int(0, prior.length), 0, invoiceId(exactDuplicate ? number : transposed(number)));
  else if (rng.chance(0.04)) prior.splice(rng.int(0, prior.length), 0, invoiceId(transposed(number)));

  const terms = rng.weighted({ 'Net 30': 0.45, 'Net 45': 0.2, '2/10 Net 30': 0.25, 'Due on receipt': 0.1 });
  const hasDiscount = terms === '2/10 Net 30';
  const daysUntilDue = terms === 'Due on receipt' ? rng.int(-6, 2) : rng.int(-5, terms === 'Net 45' ? 45 : 30);
  const discountDays = hasDiscount ? rng.int(0, 10) : null;
  const status = rng.weighted({ unpaid: 0.8, scheduled: 0.15, on_hold: 0.05 });

  const disc = (k: Discrepancy) => (kind === k ? 1 : 0);
  const mismatch = kind === 'qty_short' || kind === 'price_increase' || kind === 'unordered_line' ? 1 : 0;
  const severity = clamp(disc('rounding') * 1 + mismatch * (1.4 + 6 * relativeDiff) + (damaged ? 1.2 : 0), 0, 3);
  const dup = duplicate ? (exactDuplicate ? 1 : 0.6) : 0;
  const pressure =
    (daysUntilDue <= 3 ? 1.1 : daysUntilDue <= 10 ? 0.5 : 0) +
    (daysUntilDue < 0 ? 0.6 : 0) +
    (discountDays !== null && discountDays <= 3 ? 0.9 : 0);

  const logits: Record<string, number[]> = {
    discrepancy_severity: scoreLogits(severity, 4, 1.1),
    // approve, hold, manual_review, reject
    disposition: [
      2.6 * (1 - mismatch) * (damaged ? 0.3 : 1) - 4 * dup + 0.5,
      1.2 * disc('rounding') + 1.6 * mismatch * (severity < 2.2 ? 1 : 0.4) + 0.8 * (damaged ? 1 : 0),
      1.8 * mismatch * (severity >= 2 ? 1 : 0.5) + 0.35 * Math.min(vendorDisputes, 3),
      4.2 * dup + 0.8 * disc('unordered_line') * (severity > 2.5 ? 1 : 0) - 1,
    ],
    duplicate: noulLogits(-3.2 + 5.8 * dup),
    matches_order: noulLogits(2.8 - 5 * mismatch - 0.6 * disc('rounding') - 2.8 * (damaged ? 1 : 0)),
    urgency: scoreLogits(0.7 + pressure + 0.3 * severity * 0.5 - 0.6 * dup, 4, 0.75),
  };

  return {
    state: {
      invoice: {
        id: invoiceId(number),
        vendor: rng.pick(VENDORS),
        currency: 'USD',
        lines: invoiceLines,
        total_usd: invoiceTotal,
      },
      purchase_order: {
        id: `PO-${rng.int(10000, 99999)}`,
        lines: poLines,
        total_usd: poTotal,
        freight_terms: rng.pick(FREIGHT),
      },
      delivery: {
        date: `2026-0${rng.int(1, 6)}-${String(rng.int(1, 28)).padStart(2, '0')}`,
        received_qty: receivedQty,
        condition: damaged ? 'damaged' : kind === 'qty_short' ? 'partial' : 'good',
      },
      payment: {
        terms,
        days_until_due: daysUntilDue,
        early_payment_discount_pct: hasDiscount ? 2 : 0,
        discount_expires_in_days: discountDays,
        status,
      },
      vendor_history: {
        invoices_12m: rng.int(prior.length + 1, 40),
        disputes_12m: vendorDisputes,
        prior_invoice_ids: prior,
      },
    },
    factors: { duplicate, exactDuplicate, kind, magnitude, damaged, severity },
    logits,
  };
}
