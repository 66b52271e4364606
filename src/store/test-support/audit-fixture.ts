import type { AuditConfig } from '../../core/audit/run.js';

/** An audit of one check by a judge on loopback. */
export const AUDIT_CONFIG: AuditConfig = {
  toolVersion: 'test',
  judgeEndpoint: { scheme: 'http', host: '127.0.0.1', port: 8084, path: '/v1/systemone' },
  judgeModel: 'judge',
  set: 'recommended',
  orderProbe: true,
  transcriptsFile: '/data/t.jsonl',
  checksFile: '/data/c.json',
  checks: [{ id: 'claim-v1', questionSha256: 'a'.repeat(64), scope: 'messages', options: ['claimed', 'not_claimed'] }],
};
