import { fitLines } from '../../reports/text-fit.js';
import { shownStoreLocation } from '../../core/store-url.js';
import { given } from '../../core/given.js';
import {
  INPUT_FAILURE_REASONS,
  JUDGE_FAILURE_REASONS,
  judgeFailureCount,
  type UnavailableReason,
} from '../../core/audit/verdict.js';
import type { AuditSummary } from '../../core/audit/summary.js';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import type { AuditRequest } from '../../app/audit/plan-audit.js';
import {
  decimal,
  defineCommand,
  flag,
  MAX_LABEL_CHARACTERS,
  MAX_TIMER_SECONDS,
  oneOf,
  text,
} from '../define-command.js';
import { colourEnabled, interruptedExitCode } from '../io.js';
import { keptInStoreOptions, keptStorePathOf, outputPathOption } from '../shared-options.js';
import { TOOL_VERSION } from '../version.js';
import { auditResumeCommand } from '../../core/command-hints.js';
import { UsageError } from '../../core/errors.js';
import { refuseWrongFilesOf } from '../wrong-file.js';
import { spellForCli } from '../option-flags.js';
import { withoutCredentials } from '../../protocol/wire/endpoint.js';
import { planAuditFromStore, executeAudit } from '../../app/audit/execute-audit.js';
import { renderAuditEvent, renderAuditJson } from '../../reports/audit/audit-json.js';
import {
  renderAuditResultLines,
  renderAuditStartLine,
  renderAuditTerminal,
} from '../../reports/audit/audit-terminal.js';

export const command = defineCommand({
  name: 'audit',
  summary: "audit agents' answer text with a decision-model judge, and measure the judge",
  usage:
    'audit [--transcripts FILE --checks FILE] [--set recommended|all] [--base-url URL] [--model NAME]\n' +
    '                [--timeout SEC] [--store PATH | --no-store] [--resume RUN] [--order-probe] [--out DIR] [--json]',
  description: `Asks a judge one versioned choice question per (transcript, check) about an agent's public
answer text and compares its answer with the check's deterministic verdict: agrees,
disagrees (a review candidate), abstained (unclear or a tie) or unavailable (with the
reason). Never changes a score. Without files, audits the bundled sample (data/audits/);
without --base-url, the built-in reference server judges with its "judge" model.

One request at a time; --timeout (60 s) for a whole request, retries included, and the
first 5 requests all timing out stop the audit (saved as incomplete); a request over 6,000
UTF-8 bytes is not sent (and never truncated). The judge key comes only from the
environment variable DECIDEKIT_JUDGE_API_KEY (or a user and password in --base-url, sent
as Basic); it is never stored or printed, and no other key reaches the judge.`,
  handlesSignals: true,
  options: {
    transcripts: text('FILE', 'transcripts JSONL, one agent run a line', { defaultText: 'the bundled sample' }),
    checks: text('FILE', 'checks JSON', { defaultText: 'the bundled sample' }),
    set: oneOf('SET', ['recommended', 'all'], "which checks run (default recommended; on --resume the audit's own)"),
    'base-url': text('URL', 'judge base URL (http or https, no query or fragment; user:pass@ goes as Basic)', {
      defaultText: 'embedded reference server',
      example: 'http://127.0.0.1:8084',
    }),
    model: text('NAME', 'sent as "model"; with the embedded server, the built-in model (default judge)'),
    ...keptInStoreOptions('audit'),
    label: text('TEXT', "a label shown in 'decidekit runs list'", { maxLength: MAX_LABEL_CHARACTERS }),
    resume: text('RUN', 'complete a stored audit: judge only what is not finished'),
    'order-probe': flag('ask every audit again with the options reversed; report flip rates'),
    timeout: decimal('SEC', 'seconds per judge request, retries included (the first 5 all timing out stop it)', {
      above: 0,
      max: MAX_TIMER_SECONDS,
      defaultText: '60',
    }),
    out: outputPathOption(text('DIR', 'write <audit>.json and <audit>.md into DIR'), 'folder'),
    json: flag('the audit as one JSON document; audit_start/audit_result events on stderr'),
  },
  exitCodes:
    '0 complete, 1 incomplete (the judge failed to give a verdict: no answer, a malformed or invalid one; or no item could be judged at all), invalid input or the judge cannot be asked (nothing listening, unknown host), 2 usage error, 130 interrupted (143 by SIGTERM; resume with --resume).',
  examples: [
    'decidekit audit',
    'decidekit audit --transcripts runs.jsonl --checks checks.json --set all \\\n' + '    --order-probe --out reports/',
    'DECIDEKIT_JUDGE_API_KEY=... decidekit audit \\\n' +
      '    --transcripts runs.jsonl --checks checks.json \\\n' +
      '    --base-url https://judge.example:8084 --model clef-flash',
  ],
  async run({ values: v }, io) {
    const key = io.env['DECIDEKIT_JUDGE_API_KEY'];
    const request: AuditRequest = {
      ...(v.transcripts === undefined ? {} : { transcriptsPath: resolve(io.cwd, v.transcripts) }),
      ...(v.checks === undefined ? {} : { checksPath: resolve(io.cwd, v.checks) }),
      ...given({ set: v.set, baseUrl: v['base-url'], model: v.model }),
      ...(key === undefined || key === '' ? {} : { judgeApiKey: key }),
      orderProbe: v['order-probe'],
      ...(v.timeout === undefined ? {} : { timeoutMs: v.timeout * 1000 }),
      ...given({ label: v.label, resume: v.resume }),
      storePath: keptStorePathOf(v, io),
    };
    if ((v.transcripts === undefined) !== (v.checks === undefined) && v.resume === undefined) {
      throw new UsageError('give both --transcripts and --checks (or neither, for the bundled sample)');
    }
    await refuseWrongFilesOf('audit', v, io.cwd);
    const colour = colourEnabled(io.stderr, io.env);
    const outcome = await executeAudit(await planAuditFromStore(request), {
      toolVersion: TOOL_VERSION,
      signal: io.signal,
      now: () => performance.now(),
      ...(v.out === undefined ? {} : { outDir: resolve(io.cwd, v.out) }),
      reporter: {
        onCase: (e) =>
          io.stderr.write(
            v.json
              ? `${renderAuditEvent(e)}\n`
              : e.type === 'audit_start'
                ? `${fitLines([renderAuditStartLine(e)], io.stderr.columns)}\n`
                : `${fitLines(renderAuditResultLines(e, { colour }), io.stderr.columns)}\n`,
          ),
      },
    });
    const { run } = outcome;
    // What completes this audit, for the stopped and interrupted endings.
    // The judge's endpoint and model are stored; its key is not, so the environment must give it again.
    const keyNote =
      run.config.judgeKeyUsed === true ? ' (with DECIDEKIT_JUDGE_API_KEY set: keys are never stored)' : '';
    const basicNote =
      v['base-url'] !== undefined && withoutCredentials(v['base-url']).basicAuthorization !== null
        ? " (with the judge's user and password in --base-url again: they are never stored)"
        : '';
    const again = `${auditResumeCommand(run.id, v.store)}${keyNote}${basicNote}`;
    if (outcome.stopped !== null) {
      // As bench: the judge cannot be asked at all, so stop at once and say why.
      const kept = outcome.saved ? `; audit ${run.id} saved as incomplete: complete it with: ${again}` : '';
      io.stderr.write(`decidekit audit: stopped: ${spellForCli(outcome.stopped.words)}${kept}\n`);
      return 1;
    }
    if (outcome.written.length > 0 && !v.json) io.stderr.write(`wrote ${outcome.written.join(' and ')}\n`);
    io.stdout.write(
      v.json
        ? renderAuditJson(run)
        : renderAuditTerminal(run, {
            colour: colourEnabled(io.stdout, io.env),
            ...given({ width: io.stdout.columns }),
          }),
    );
    if (outcome.writeError !== null) io.stderr.write(`decidekit audit: ${outcome.writeError}\n`);
    if (!v.json) {
      const where = request.storePath === null ? '' : ` in ${shownStoreLocation(request.storePath)}`;
      io.stderr.write(
        !outcome.saved
          ? 'audit not saved (--no-store)\n'
          : `audit ${run.id} saved${where}${outcome.interrupted ? `; complete it with: ${again}` : ''}\n`,
      );
    }
    if (outcome.interrupted) return interruptedExitCode(io.signal);
    if (run.status === 'incomplete') {
      io.stderr.write(`decidekit audit: incomplete: ${incompleteWords(run.summary)}\n`);
      return 1;
    }
    return outcome.writeError === null ? 0 : 1;
  },
});

/** Why a finished audit is incomplete: verdicts the judge failed to give, or none it could give at all. */
function incompleteWords(summary: AuditSummary): string {
  const u = summary.unavailable;
  const counted = (reasons: readonly UnavailableReason[]) =>
    reasons.filter((r) => (u[r] ?? 0) > 0).map((r) => `${u[r]} ${r.replaceAll('_', ' ')}`);
  const failed = judgeFailureCount(u);
  if (failed > 0)
    return `the judge failed to give ${failed} of ${summary.audited} verdicts (${counted(JUDGE_FAILURE_REASONS).join(', ')})`;
  return `no item could be judged: all ${summary.audited} are input that cannot be judged (${counted(INPUT_FAILURE_REASONS).join(', ')}); give transcripts with assistant text in the checks' scopes`;
}
