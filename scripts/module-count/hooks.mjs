// Module hooks (run on Node's hooks thread): every module URL that is loaded is appended to
// the file named by DECIDEKIT_MODULE_LOG, one a line, as it loads (so a command ended by a
// signal still leaves its list).
import { appendFileSync } from 'node:fs';

const logFile = process.env.DECIDEKIT_MODULE_LOG;

export async function load(url, context, nextLoad) {
  if (logFile !== undefined) appendFileSync(logFile, `${url}\n`);
  return nextLoad(url, context);
}
