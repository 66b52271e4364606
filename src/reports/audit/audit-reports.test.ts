import { describe, expect, it } from 'vitest';
import type { AuditRecord, AuditRun } from '../../core/audit/run.js';
import { summarizeAudit } from '../../core/audit/summary.js';
import { renderAuditEvent } from './audit-json.js';
import { renderAuditMarkdown } from './audit-markdown.js';
import { renderAuditResultLines, renderAuditTerminal } from './audit-terminal.js';

const answer = (choice: string, p: number) => ({
  choice,
  probabilities: choice === 'yes' ? { yes: p, no: 1 - p } : { yes: 1 - p, no: p },
});
const record = (
  id: string,
  outcome: AuditRecord['outcome'],
  orderSwap: AuditRecord['orderSwap'] = null,
): AuditRecord => ({
  transcriptId: id,
  tags: [],
  checkId: 'claim-v1',
  questionSha256: 'b'.repeat(64),
  scope: 'messages',
  questionJson: '{"type":"choice"}',
  input: '{"state":{"assistant_messages":["done ```not a fence``` | pipe"]}}',
  label: 'yes',
  outcome,
  elapsedMs: 5,
  orderSwap,
});
const records = [
  record(
    'agree-1',
    { status: 'agrees', answer: answer('yes', 0.9) },
    { kind: 'answered', answer: answer('yes', 0.8), elapsedMs: 4 },
  ),
  record(
    'flip|1',
    { status: 'disagrees', answer: answer('no', 0.7) },
    { kind: 'answered', answer: answer('yes', 0.6), elapsedMs: 4 },
  ),
  record('down-1', { status: 'unavailable', reason: 'timeout', message: 'no valid answer within the 10 s deadline' }),
];
const run: AuditRun = {
  id: 'audit-20261201-001500-abcd',
  createdAt: '2026-12-01T00:15:00.000Z',
  status: 'complete',
  label: null,
  durationMs: 20,
  config: {
    toolVersion: 'test',
    judgeEndpoint: { scheme: 'http', host: '127.0.0.1', port: 8084, path: '/v1/systemone' },
    judgeModel: 'judge',
    set: 'all',
    orderProbe: true,
    transcriptsFile: 'sample',
    checksFile: 'sample',
    checks: [{ id: 'claim-v1', questionSha256: 'b'.repeat(64), scope: 'messages', options: ['yes', 'no'] }],
  },
  records,
  pending: [],
  summary: summarizeAudit([{ id: 'claim-v1', options: ['yes', 'no'] }], records),
};

describe('audit reports', () => {
  it('Markdown opens with the table, disagreements first, then the limits, and flags order dependence', () => {
    const md = renderAuditMarkdown(run);
    const table = md.slice(md.indexOf('| transcript |'), md.indexOf('## Limits'));
    expect(table.indexOf('flip\\|1')).toBeLessThan(table.indexOf('down-1'));
    expect(table.indexOf('down-1')).toBeLessThan(table.indexOf('agree-1'));
    expect(md.indexOf('| transcript |')).toBeLessThan(md.indexOf('not calibrated against human labels'));
    expect(md).toContain('can steer a judge');
    expect(md).toContain('**Order-dependent checks:** claim-v1');
    expect(md).toContain('| yes | 1 | 1 | 0 | 1 |');
    // The exact input sits in a fence longer than any backtick run inside it.
    expect(md).toContain('````json\n{"state":{"assistant_messages":["done ```not a fence``` | pipe"]}}\n````');
  });

  it('terminal lines label a reused verdict as a saved audit and name an unsent one', () => {
    const saved = renderAuditResultLines({ record: records[0]!, saved: true }, { colour: false });
    expect(saved[0]).toBe('agree-1  claim-v1');
    expect(saved[1]).toMatch(/^ {2}saved audit: agrees with the check \(yes\): yes p=0\.90$/);
    const fresh = renderAuditResultLines({ record: records[1]!, saved: false }, { colour: false });
    expect(fresh[0]).toContain('DISAGREES: judge no p=0.70, check says yes');
    expect(renderAuditTerminal(run, { colour: false })).toContain('1/2 ORDER-DEPENDENT');
  });

  it('events carry no evidence text', () => {
    const line = renderAuditEvent({ type: 'audit_result', record: records[1]!, saved: false });
    expect(JSON.parse(line)).toMatchObject({
      type: 'audit_result',
      transcript: 'flip|1',
      status: 'disagrees',
      choice: 'no',
    });
    expect(line).not.toContain('not a fence');
  });
});
