import { hostname } from 'node:os';
import type { RunClaimOwner } from '../store/run-claim.js';

/** This process as the owner of the runs it sends (see store/run-claim.ts). */
export function thisProcess(): RunClaimOwner {
  return { pid: process.pid, host: hostname(), isAlive: isProcessAlive };
}

function isProcessAlive(pid: number): boolean {
  try {
    // Signal 0 sends nothing: it only asks whether the process exists.
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}
