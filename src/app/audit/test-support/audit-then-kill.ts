/**
 * Child process of the resume test: audits FILES with the built-in judge into STORE, prints
 * the last saved transcript id, and kills itself with SIGKILL (no close, no finish) once N verdicts are saved.
 * Usage: node --import tsx audit-then-kill.ts STORE CHECKS TRANSCRIPTS N
 */
import { writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { executeAudit } from '../execute-audit.js';
import { planAudit } from '../plan-audit.js';

const [storePath, checksPath, transcriptsPath, countText] = process.argv.slice(2);
const count = Number(countText);
let seen = 0;
await executeAudit(
  planAudit({ storePath: storePath!, checksPath: checksPath!, transcriptsPath: transcriptsPath! }, null),
  {
    toolVersion: 'test',
    signal: new AbortController().signal,
    now: () => performance.now(),
    reporter: {
      onCase: (e) => {
        if (e.type !== 'audit_result') return;
        seen++;
        if (seen === count) {
          writeSync(1, `${e.record.transcriptId}\n`);
          process.kill(process.pid, 'SIGKILL');
        }
      },
    },
  },
);
