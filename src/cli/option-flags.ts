/**
 * The one map from an option of a library call to the flag that sets it: library messages
 * name options (`outDir`), the CLI shows the flag (`--out`).
 */
import { DecidekitError } from '../core/errors.js';
import { spellWords, type CallOption, type MessageWords, type OptionMention } from '../core/message-words.js';

const FLAG_OF: { readonly [O in CallOption]: string } = {
  apiKey: '--api-key',
  bundleDir: '--bundle',
  baseUrl: '--base-url',
  cacheDir: '--cache-dir',
  calibrationPath: '--calibration',
  'conventions.eceAverage': '--ece-average',
  'conventions.eceBinning': '--ece-binning',
  'conventions.eceBins': '--ece-bins',
  'costs.falseNegative': '--cost-fn',
  'costs.falsePositive': '--cost-fp',
  dataset: '--dataset',
  engine: '--engine',
  leaseSec: '--lease',
  limit: '--limit',
  shards: '--shards',
  metricsUrl: '--metrics-url',
  model: '--model',
  outDir: '--out',
  mapPath: '--out',
  parallel: '--parallel',
  parallelByReplica: '--parallel',
  port: '--port',
  host: '--host',
  htmlPath: '--html',
  recordPath: '--record',
  checksPath: '--checks',
  transcriptsPath: '--transcripts',
  resume: '--resume',
  retryAfter: '--retry-after',
  retryFailed: '--retry-failed',
  runIds: 'RUN',
  sample: '--sample',
  split: '--split',
  storePath: '--store',
  'storePath: null': '--no-store',
  table: '--table',
  target: '--out',
  thresholds: '--threshold',
  workflow: '--workflow',
  force: '--force',
  pricePerMtokUsd: '--price-per-mtok',
  retries: '--retries',
  revision: '--revision',
  'sample.seed': '--seed',
  sha256: '--sha256',
  timeoutMs: '--timeout',
  timeoutSec: '--timeout',
};

/** The flag that sets an option, with its value's placeholder when the message gives one. */
export function flagOf(mention: OptionMention): string {
  const flag = FLAG_OF[mention.option];
  return mention.placeholder === undefined ? flag : `${flag} ${mention.placeholder}`;
}

/** Words as the command line reads them: options spelled as their flags. */
export function spellForCli(message: MessageWords): string {
  return spellWords(message, flagOf);
}

/** An error's message as the command line reads it: options spelled as their flags. */
export function cliMessageOf(error: unknown): string {
  if (error instanceof DecidekitError) return spellWords(error.words, flagOf);
  return error instanceof Error ? error.message : String(error);
}
