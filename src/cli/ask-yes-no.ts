/** A yes/no question asked on the controlling terminal, for what cannot be undone. */
import { createInterface } from 'node:readline';
import type { TerminalPorts } from './io.js';

/**
 * Shows `question` with ` [y/N] ` on the terminal and reads one line: true only for "y" or
 * "yes" (any case). Anything else, an ended input or an abort (Ctrl+C) is no.
 */
export function askYesNo(terminal: TerminalPorts, question: string, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    // Not in terminal mode: the terminal's own line editing reads the answer.
    const lines = createInterface({ input: terminal.input, terminal: false });
    let answered = false;
    const finish = (yes: boolean) => {
      if (answered) return;
      answered = true;
      signal.removeEventListener('abort', onAbort);
      lines.close();
      resolve(yes);
    };
    const onAbort = () => finish(false);
    if (signal.aborted) return finish(false);
    signal.addEventListener('abort', onAbort, { once: true });
    lines.once('line', (line) => finish(/^\s*y(es)?\s*$/i.test(line)));
    lines.once('close', () => {
      // Input ended (Ctrl+D) with no answer: end the question's line.
      if (!answered) terminal.output.write('\n');
      finish(false);
    });
    terminal.output.write(`${question} [y/N] `);
  });
}
