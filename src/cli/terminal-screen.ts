/**
 * The one module that owns a terminal: alternate screen, hidden cursor, raw-mode keys,
 * resize events and redraws. A redraw writes only the lines that changed since the last
 * frame, inside a synchronized-output bracket (terminals without it ignore the codes), and
 * happens at most once per `minFrameMs`. `close()` restores everything (cursor shown,
 * alternate screen left, raw mode off) and is also run on process exit, so a crash cannot
 * leave the terminal in raw mode.
 */
import { visibleWidth } from '../reports/format.js';
import type { LiveKey, TerminalSize } from '../monitor/live-state.js';
import type { TerminalPorts } from './io.js';

export interface TerminalScreenHandlers {
  /** The lines of the next frame at this size (exactly `rows` lines, none wider than `columns`). */
  readonly frame: (size: TerminalSize) => readonly string[];
  readonly onKey: (key: LiveKey) => void;
  readonly onResize: (size: TerminalSize) => void;
  /**
   * A frame, key or resize handler threw (timers and stream events have no caller to throw
   * to): the owner restores the terminal and reports the error.
   */
  readonly onError: (error: unknown) => void;
}

export interface TerminalScreen {
  size(): TerminalSize;
  /** Asks for a redraw; frames are coalesced to at most one per `minFrameMs`. */
  invalidate(): void;
  /** Restores the terminal; safe to call twice. */
  close(): void;
  /** Frames drawn so far (for tests and benchmarks). */
  readonly frames: () => number;
}

const ENTER = '\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[2J\x1b[H';
const LEAVE = '\x1b[0m\x1b[?2026l\x1b[?7h\x1b[?25h\x1b[?1049l';
const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';

/** Which key a byte of raw input is (Ctrl+C, Ctrl+R, q), or null. */
export function keyOf(byte: number): LiveKey | null {
  if (byte === 0x03) return 'interrupt';
  if (byte === 0x12) return 'reset';
  if (byte === 0x71 || byte === 0x51) return 'quit';
  return null;
}

/**
 * The escape codes that turn frame `previous` into frame `next`: for each changed line,
 * move there, write it, and clear the rest of the line when it is shorter than the screen.
 */
export function renderFrameUpdate(
  previous: readonly string[] | null,
  next: readonly string[],
  columns: number,
): string {
  let out = '';
  for (let i = 0; i < next.length; i++) {
    const line = next[i]!;
    if (previous !== null && previous[i] === line) continue;
    out += `\x1b[${i + 1};1H${line}\x1b[0m${visibleWidth(line) < columns ? '\x1b[K' : ''}`;
  }
  if (previous !== null) for (let i = next.length; i < previous.length; i++) out += `\x1b[${i + 1};1H\x1b[K`;
  return out === '' ? '' : SYNC_START + out + SYNC_END;
}

export function openTerminalScreen(
  ports: TerminalPorts,
  handlers: TerminalScreenHandlers,
  options: { readonly minFrameMs?: number; readonly now?: () => number } = {},
): TerminalScreen {
  const { input, output } = ports;
  const minFrameMs = options.minFrameMs ?? 100;
  const now = options.now ?? (() => performance.now());
  let previous: string[] | null = null;
  let lastFrameAt = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let frames = 0;

  const size = (): TerminalSize => ({ columns: output.columns || 80, rows: output.rows || 24 });
  const guarded =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      try {
        fn(...args);
      } catch (error) {
        handlers.onError(error);
      }
    };
  const draw = guarded(() => {
    timer = null;
    if (closed) return;
    lastFrameAt = now();
    const s = size();
    const next = [...handlers.frame(s)];
    const update = renderFrameUpdate(previous, next, s.columns);
    // Counted as drawn only once written: a failed write redraws everything next time.
    previous = null;
    if (update !== '') output.write(update);
    previous = next;
    frames++;
  });
  const onData = guarded((chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (const byte of bytes) {
      const key = keyOf(byte);
      if (key !== null) handlers.onKey(key);
    }
  });
  const onResize = guarded(() => {
    // Everything moved: the next frame is drawn whole on a cleared screen.
    previous = null;
    output.write('\x1b[2J');
    handlers.onResize(size());
  });
  const restore = () => {
    if (closed) return;
    closed = true;
    if (timer !== null) clearTimeout(timer);
    input.off('data', onData);
    output.off('resize', onResize);
    process.off('exit', restore);
    // Each step on its own: one failing (a closed terminal) must not skip the others.
    const steps = [
      () => output.write(LEAVE),
      () => input.isTTY && input.setRawMode(false),
      () => input.pause(),
      () => input.unref?.(),
    ];
    for (const step of steps) {
      try {
        step();
      } catch {
        // nothing more can be done for this step
      }
    }
  };

  process.on('exit', restore);
  output.write(ENTER);
  if (input.isTTY) input.setRawMode(true);
  input.on('data', onData);
  input.resume();
  output.on('resize', onResize);

  return {
    size,
    invalidate() {
      if (closed || timer !== null) return;
      timer = setTimeout(draw, Math.max(0, lastFrameAt + minFrameMs - now()));
    },
    close: restore,
    frames: () => frames,
  };
}
