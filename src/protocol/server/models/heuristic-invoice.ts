import { isRecord } from '../../../core/json-value.js';
import { at, numberAt, textOf } from './state-reading.js';
import type { Signals } from './heuristic-signals.js';

interface Line {
  readonly sku: string;
  readonly qty: number | null;
  readonly unit: number | null;
  readonly total: number | null;
}

function linesAt(state: unknown, key: string): Line[] {
  const v = at(state, key, 'lines');
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((l) => ({
    sku: typeof l['sku'] === 'string' ? l['sku'] : '',
    qty: numberAt(l, 'qty'),
    unit: numberAt(l, 'unit_usd'),
    total: numberAt(l, 'total_usd'),
  }));
}

/** Received quantity: a number, an object of sku -> qty, or an array of {qty}. */
function receivedQty(state: unknown): number | null {
  const v = at(state, 'delivery', 'received_qty');
  if (typeof v === 'number') return v;
  if (Array.isArray(v))
    return v.reduce<number>((s, x) => s + (typeof x === 'number' ? x : (numberAt(x, 'qty') ?? 0)), 0);
  if (isRecord(v)) return Object.values(v).reduce<number>((s, x) => s + (typeof x === 'number' ? x : 0), 0);
  return null;
}

/** 0 none, 1 trivial (under $1 or 0.1%), 2 moderate (under 5%), 3 material. */
function amountLevel(diff: number, base: number): number {
  const abs = Math.abs(diff);
  if (abs < 0.005) return 0;
  const rel = abs / Math.max(Math.abs(base), 1);
  if (abs < 1 || rel < 0.001) return 1;
  return rel < 0.05 ? 2 : 3;
}

/**
 * invoice_processing: invoice total vs purchase-order total, line arithmetic (qty x unit vs
 * line total, lines vs invoice total), invoice lines vs PO lines by sku, invoiced vs
 * `delivery.received_qty`, `delivery.condition`, the invoice id in
 * `vendor_history.prior_invoice_ids` (duplicate), `disputes_12m`, and payment timing
 * (`days_until_due`, early-payment discount expiry, `status`).
 */
export function invoiceSignals(state: unknown): Signals {
  const invTotal = numberAt(state, 'invoice', 'total_usd');
  const poTotal = numberAt(state, 'purchase_order', 'total_usd');
  const invLines = linesAt(state, 'invoice');
  const poLines = linesAt(state, 'purchase_order');

  let level = invTotal !== null && poTotal !== null ? amountLevel(invTotal - poTotal, poTotal) : 0;
  let lineSum = 0;
  for (const l of invLines) {
    if (l.qty !== null && l.unit !== null && l.total !== null)
      level = Math.max(level, amountLevel(l.qty * l.unit - l.total, l.total));
    lineSum += l.total ?? 0;
  }
  if (invTotal !== null && invLines.length > 0) level = Math.max(level, amountLevel(lineSum - invTotal, invTotal));
  const poBySku = new Map(poLines.map((l) => [l.sku, l]));
  for (const l of invLines) {
    const po = poBySku.get(l.sku);
    if (poLines.length > 0 && po === undefined) level = Math.max(level, 3);
    else if (po !== undefined) {
      if (l.qty !== null && po.qty !== null && l.qty !== po.qty) level = Math.max(level, 2);
      if (l.unit !== null && po.unit !== null)
        level = Math.max(level, amountLevel((l.unit - po.unit) * (l.qty ?? 1), po.total ?? po.unit));
    }
  }
  const invoicedQty = invLines.reduce((s, l) => s + (l.qty ?? 0), 0);
  const received = receivedQty(state);
  const shortfall = received !== null && invoicedQty > 0 ? Math.max(0, invoicedQty - received) / invoicedQty : 0;
  if (shortfall > 0) level = Math.max(level, shortfall > 0.2 ? 3 : 2);
  const condition = textOf(at(state, 'delivery', 'condition'));
  const damaged = /damag|partial|missing|broken|reject|short/.test(condition) ? 1 : 0;
  if (damaged) level = Math.max(level, 2);

  const invoiceId = at(state, 'invoice', 'id');
  const priorIds = at(state, 'vendor_history', 'prior_invoice_ids');
  const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toUpperCase() : '');
  const dup =
    typeof invoiceId === 'string' && Array.isArray(priorIds) && priorIds.some((p) => norm(p) === norm(invoiceId))
      ? 1
      : 0;
  const disputes = Math.min(numberAt(state, 'vendor_history', 'disputes_12m') ?? 0, 4);

  const due = numberAt(state, 'payment', 'days_until_due');
  const discount = numberAt(state, 'payment', 'early_payment_discount_pct') ?? 0;
  const discountDays = numberAt(state, 'payment', 'discount_expires_in_days');
  const status = textOf(at(state, 'payment', 'status'));
  const overdue = /overdue|late|past due|final/.test(status) || (due !== null && due < 0) ? 1 : 0;
  const timePressure =
    (due === null ? 0 : due <= 3 ? 1.1 : due <= 10 ? 0.5 : due > 45 ? -0.3 : 0) +
    (discount > 0 && discountDays !== null && discountDays >= 0 && discountDays <= 3 ? 0.7 : 0) +
    1.3 * overdue;

  return {
    choice: {
      disposition: {
        approve: 1.6 - 1.25 * level - 3.2 * dup - 0.15 * disputes,
        hold: -0.2 + (level === 1 || level === 2 ? 0.8 : 0) + 0.5 * (shortfall > 0 ? 1 : 0) + 0.3 * damaged,
        manual_review: -1.1 + 0.65 * level + 0.25 * disputes,
        reject: -2.6 + 4.2 * dup + (level >= 3 ? 0.6 : 0),
      },
    },
    score: {
      discrepancy_severity: level,
      urgency: 1.0 + timePressure - 0.3 * dup,
    },
    noul: {
      matches_order: 2.2 - 1.6 * level - 0.4 * damaged,
      duplicate: dup ? 2.6 : typeof invoiceId === 'string' && Array.isArray(priorIds) ? -3.0 : -1.6,
    },
  };
}
