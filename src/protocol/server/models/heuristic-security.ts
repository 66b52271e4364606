import { at, booleanAt, countCues, numberAt, textOf } from './state-reading.js';
import { sigmoid } from './distribution.js';
import type { Signals } from './heuristic-signals.js';

const THREAT = [
  'malware',
  'ransomware',
  'exfiltrat',
  'mimikatz',
  'credential dump',
  'lsass',
  'brute force',
  'password spray',
  'impossible travel',
  'phishing',
  'c2',
  'command and control',
  'beacon',
  'tor exit',
  'privilege escalation',
  'lateral movement',
  'persistence',
  'suspicious',
  'unusual',
  'anomalous',
  'new country',
  'unknown ip',
  'token theft',
  'session hijack',
  'encoded',
  'obfuscated',
  'disabled logging',
  'mass download',
  'unauthori',
  'malicious',
];
const CREDENTIAL = [
  'login',
  'log-in',
  'sign-in',
  'signin',
  'sign in',
  'credential',
  'password',
  'token',
  'session',
  'mfa',
  'impossible travel',
  'brute force',
  'spray',
  'phishing',
  'new device',
  'new country',
  'account takeover',
];
const BENIGN = [
  'scheduled',
  'backup',
  'maintenance',
  'known',
  'approved',
  'expected',
  'patch',
  'update',
  'scanner',
  'vulnerability scan',
  'pentest',
  'false positive',
  'allowlisted',
  'whitelisted',
  'authorized',
  'change ticket',
];

function criticality(state: unknown): number {
  const n = numberAt(state, 'context', 'asset_criticality');
  if (n !== null) return Math.min(Math.max(n, 0), 3);
  const t = textOf(at(state, 'context', 'asset_criticality'));
  if (/crown|critical|tier.?0/.test(t)) return 3;
  if (/high|tier.?1|prod/.test(t)) return 2;
  if (/medium|moderate|tier.?2/.test(t)) return 1;
  return 0;
}

function privilegeLevel(state: unknown): number {
  const t = textOf(at(state, 'principal', 'privileges'));
  if (/admin|root|owner|superuser|global|domain|\*/.test(t)) return 2;
  if (/write|prod|deploy|secret|billing|payment|customer|iam/.test(t)) return 1;
  return 0;
}

/**
 * security_incidents: threat, credential and benign cue words in `alert` (rule,
 * description, evidence), `principal.privileges` and `mfa_enrolled`,
 * `history.distinct_countries_30d` / `prior_alerts_90d` / `credential_rotation_days_ago`,
 * `context.asset_criticality`, `change_window_active`, `source_on_allowlist`.
 */
export function securitySignals(state: unknown): Signals {
  const alert = textOf(at(state, 'alert'));
  const threat = Math.min(countCues(alert, THREAT), 4);
  const cred = Math.min(countCues(alert, CREDENTIAL), 3);
  const benign = Math.min(countCues(alert, BENIGN), 3);
  const mfa = booleanAt(state, 'principal', 'mfa_enrolled');
  const noMfa = mfa === false ? 1 : 0;
  const countries = numberAt(state, 'history', 'distinct_countries_30d') ?? 1;
  const priorAlerts = Math.min(numberAt(state, 'history', 'prior_alerts_90d') ?? 0, 5);
  const rotation = numberAt(state, 'history', 'credential_rotation_days_ago') ?? 0;
  const allow = booleanAt(state, 'context', 'source_on_allowlist') === true ? 1 : 0;
  const change = booleanAt(state, 'context', 'change_window_active') === true ? 1 : 0;
  const crit = criticality(state);
  const priv = privilegeLevel(state);
  const spread = Math.min(Math.max(countries - 1, 0), 3);

  const tpZ =
    -0.4 + 0.55 * threat - 0.6 * benign - 1.4 * allow - 0.8 * change + 0.3 * spread + 0.12 * priorAlerts + 0.3 * noMfa;
  const pTp = sigmoid(tpZ);
  return {
    choice: {
      disposition: {
        close_benign: 0.3 + 1.2 * allow + 0.8 * change + 0.4 * benign - 2.4 * pTp,
        monitor: 0.5 - 2.2 * Math.abs(pTp - 0.35),
        investigate: -0.4 + 2.0 * pTp + 0.1 * crit,
        contain: -3.2 + 3.0 * pTp + 0.45 * crit + 0.4 * priv,
      },
    },
    score: {
      severity: 0.4 + 0.7 * priv + 0.55 * crit + 0.25 * Math.min(threat, 3) - 0.3 * benign,
      urgency: 0.4 + 1.8 * pTp + 0.35 * crit + 0.2 * priv - 0.3 * allow,
    },
    noul: {
      true_positive: tpZ,
      credential_compromise:
        -1.5 +
        0.6 * cred +
        0.8 * noMfa +
        0.5 * spread -
        1.0 * allow +
        (rotation > 180 ? 0.3 : 0) +
        0.25 * Math.min(threat, 2),
    },
  };
}
