/** security_incidents: a detection alert, the principal behind it, its history and context. */
import type { Prng } from './prng.js';
import { clamp, noulLogits, scoreLogits, type GeneratedCase } from './teacher.js';

type Scenario =
  | 'travel_vpn'
  | 'admin_change'
  | 'allowlisted_scanner'
  | 'misconfiguration'
  | 'stuffing_success'
  | 'token_theft'
  | 'insider_exfiltration'
  | 'malware_beacon';

interface ScenarioSpec {
  readonly malicious: boolean;
  readonly credential: boolean;
  readonly rules: readonly string[];
  readonly evidence: readonly string[];
}

const SCENARIOS: Record<Scenario, ScenarioSpec> = {
  travel_vpn: {
    malicious: false,
    credential: false,
    rules: ['impossible_travel', 'new_country_login'],
    evidence: [
      'source IP belongs to the corporate VPN egress range',
      "device fingerprint matches the user's managed laptop",
      'calendar shows the user travelling this week',
      'MFA approved on the registered phone',
    ],
  },
  admin_change: {
    malicious: false,
    credential: false,
    rules: ['new_admin_grant', 'firewall_rule_change'],
    evidence: [
      'change ticket CHG-4471 approved yesterday',
      'performed from the bastion host',
      'change matches the documented runbook step',
      'grant expires automatically in 4 hours',
    ],
  },
  allowlisted_scanner: {
    malicious: false,
    credential: false,
    rules: ['port_scan_internal', 'many_failed_logins'],
    evidence: [
      'source is the vulnerability scanner appliance',
      'scan window matches the weekly schedule',
      'no successful authentication followed',
    ],
  },
  misconfiguration: {
    malicious: false,
    credential: false,
    rules: ['many_failed_logins', 'api_key_used_from_new_asn', 'public_bucket_detected'],
    evidence: [
      'failures come from a job using an expired password',
      'the same pattern started right after a deploy',
      'requests come from a new cloud region of our own CI',
      'bucket policy changed by an automation account',
    ],
  },
  stuffing_success: {
    malicious: true,
    credential: true,
    rules: ['many_failed_logins', 'new_country_login'],
    evidence: [
      '2,300 failed logins from 180 IPs, then one success',
      'success from a residential proxy network',
      'MFA not challenged: legacy protocol used',
      'mailbox rule created forwarding to an external domain',
    ],
  },
  token_theft: {
    malicious: true,
    credential: true,
    rules: ['impossible_travel', 'api_key_used_from_new_asn', 'session_token_reuse'],
    evidence: [
      'session token reused from two countries 6 minutes apart',
      'user agent does not match any managed device',
      '14 MFA push prompts in 3 minutes before approval',
      'access key used from a hosting provider never seen before',
    ],
  },
  insider_exfiltration: {
    malicious: true,
    credential: false,
    rules: ['mass_download', 'usb_mass_storage'],
    evidence: [
      '4.2 GB downloaded from the CRM export in 20 minutes',
      'user resigned last week',
      'files copied to a personal cloud drive',
      'downloads happened outside working hours',
    ],
  },
  malware_beacon: {
    malicious: true,
    credential: false,
    rules: ['suspicious_powershell', 'beaconing_traffic'],
    evidence: [
      'encoded PowerShell launched by a document macro',
      'outbound connections every 60 seconds to a newly registered domain',
      'process injected into explorer.exe',
      'EDR quarantine failed',
    ],
  },
};

const DESCRIPTIONS: Record<string, string> = {
  impossible_travel: 'Sign-ins from two locations too far apart for the time between them.',
  new_country_login: 'First sign-in from this country for the account.',
  new_admin_grant: 'Account granted an administrative role.',
  firewall_rule_change: 'Inbound firewall rule opened on a production network.',
  port_scan_internal: 'Host probed many ports across the internal network.',
  many_failed_logins: 'Unusually many failed sign-ins against the account.',
  api_key_used_from_new_asn: 'API key used from a network never seen for it.',
  public_bucket_detected: 'Storage bucket became publicly readable.',
  session_token_reuse: 'One session token used from several devices.',
  mass_download: 'Large volume of records downloaded in a short time.',
  usb_mass_storage: 'Mass-storage device mounted on a managed laptop.',
  suspicious_powershell: 'Obfuscated PowerShell executed.',
  beaconing_traffic: 'Periodic outbound traffic to a rare destination.',
};

const PEOPLE = ['a.okafor', 'b.lindqvist', 'c.moreau', 'd.tanaka', 'e.silva', 'f.nowak', 'g.haddad', 'h.kim'];
const SERVICES = ['svc-backup', 'svc-ci-deploy', 'svc-reporting', 'svc-billing-sync'];
const PRIVILEGES = {
  standard: [
    ['read:wiki', 'read:tickets'],
    ['read:crm', 'write:tickets'],
  ],
  elevated: [
    ['read:crm', 'write:crm', 'export:reports'],
    ['deploy:staging', 'read:logs'],
  ],
  admin: [
    ['admin:iam', 'admin:billing'],
    ['deploy:production', 'read:secrets', 'admin:network'],
  ],
} as const;
const CRITICALITY = ['low', 'medium', 'high', 'crown_jewel'] as const;

export function generateSecurityIncident(rng: Prng): GeneratedCase {
  const scenario = rng.weighted<Scenario>({
    travel_vpn: 0.18,
    admin_change: 0.14,
    allowlisted_scanner: 0.12,
    misconfiguration: 0.18,
    stuffing_success: 0.1,
    token_theft: 0.1,
    insider_exfiltration: 0.08,
    malware_beacon: 0.1,
  });
  const spec = SCENARIOS[scenario];
  const service = scenario === 'misconfiguration' || scenario === 'admin_change' ? rng.chance(0.5) : rng.chance(0.15);
  const privilege = rng.weighted({ standard: 0.5, elevated: 0.3, admin: 0.2 });
  const privilegeLevel = privilege === 'standard' ? 0 : privilege === 'elevated' ? 1 : 2;
  const criticality = rng.weighted({ low: 0.25, medium: 0.35, high: 0.28, crown_jewel: 0.12 });
  const criticalityLevel = CRITICALITY.indexOf(criticality);

  const rule = rng.pick(spec.rules);
  // Most evidence is telling; sometimes a line from a look-alike scenario muddies it.
  const evidence = rng.sample(spec.evidence, rng.int(2, 3));
  if (rng.chance(0.2)) {
    const other = SCENARIOS[rng.pick(Object.keys(SCENARIOS) as Scenario[])];
    evidence.push(rng.pick(other.evidence));
  }
  const mfa = service ? false : spec.credential ? rng.chance(0.55) : rng.chance(0.85);
  const changeWindow = scenario === 'admin_change' ? rng.chance(0.9) : rng.chance(0.1);
  const allowlisted =
    scenario === 'allowlisted_scanner'
      ? rng.chance(0.9)
      : scenario === 'travel_vpn'
        ? rng.chance(0.5)
        : rng.chance(0.05);

  const malicious = spec.malicious ? 1 : 0;
  const credential = spec.credential ? 1 : 0;
  const benignExplained = (changeWindow && !spec.malicious ? 1 : 0) + (allowlisted && !spec.malicious ? 1 : 0);
  const impact = clamp(0.6 * criticalityLevel + 0.55 * privilegeLevel + 1.2 * malicious + 0.5 * credential - 0.2, 0, 4);
  const containNow =
    malicious *
    (credential || scenario === 'insider_exfiltration' ? 1 : 0.6) *
    (criticalityLevel >= 2 || privilegeLevel === 2 ? 1 : 0.5);

  const logits: Record<string, number[]> = {
    credential_compromise: noulLogits(
      -2.2 + 4.2 * credential + 0.4 * malicious * (1 - credential) - 0.4 * (mfa ? 1 : 0) * credential,
    ),
    // close_benign, contain, investigate, monitor
    disposition: [
      1.6 * (1 - malicious) + 1.2 * benignExplained - 0.3,
      3.4 * containNow - 0.6,
      1.5 * malicious + 0.6 * (1 - malicious) * (scenario === 'misconfiguration' ? 1 : 0) + 0.3,
      1.0 * (1 - malicious) + 0.6 * (scenario === 'misconfiguration' ? 1 : 0) - 0.4 * benignExplained,
    ],
    severity: scoreLogits(impact, 5, 0.8),
    true_positive: noulLogits(-1.7 + 3.8 * malicious - 0.9 * benignExplained),
    urgency: scoreLogits(
      0.4 + 1.5 * malicious + 0.5 * credential + 0.25 * criticalityLevel - 0.5 * benignExplained,
      4,
      0.7,
    ),
  };

  const history = {
    logins_30d: service ? rng.int(500, 5000) : rng.int(15, 140),
    distinct_countries_30d:
      scenario === 'travel_vpn' || scenario === 'token_theft' || scenario === 'stuffing_success'
        ? rng.int(2, 4)
        : rng.int(1, 2),
    prior_alerts_90d: rng.poisson(spec.malicious ? 0.8 : 1.6),
    credential_rotation_days_ago: rng.int(1, service ? 700 : 180),
  };
  const privilegeSets: readonly (readonly string[])[] = PRIVILEGES[privilege];
  return {
    state: {
      alert: { rule, description: DESCRIPTIONS[rule], evidence },
      principal: {
        name: service ? rng.pick(SERVICES) : rng.pick(PEOPLE),
        type: service ? 'service_account' : 'user',
        privileges: [...rng.pick(privilegeSets)],
        mfa_enrolled: mfa,
      },
      history,
      context: { asset_criticality: criticality, change_window_active: changeWindow, source_on_allowlist: allowlisted },
    },
    factors: { scenario, malicious, credential, criticality, privilege },
    logits,
  };
}
