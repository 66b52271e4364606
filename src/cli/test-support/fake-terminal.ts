/** A controlling terminal for in-process CLI tests: typed lines go in, what is shown on it is kept. */
import { PassThrough } from 'node:stream';
import type { TerminalPorts } from '../io.js';

export interface FakeTerminal {
  readonly ports: TerminalPorts;
  /** Everything written to the terminal so far. */
  shown(): string;
}

/** A terminal on which `typed` is what the person types (lines end with "\n"). */
export function fakeTerminal(typed: string): FakeTerminal {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  let shown = '';
  const output = Object.assign(new PassThrough(), {
    isTTY: true,
    columns: 100,
    rows: 30,
    write(chunk: string | Uint8Array) {
      shown += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    },
  });
  input.end(typed);
  return {
    ports: { input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream },
    shown: () => shown,
  };
}
