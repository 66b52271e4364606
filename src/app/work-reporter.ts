/**
 * How a long use case (`bench`, `audit`, `probe`) tells its caller how the work goes, one
 * shape for all of them: the work starts (once, with what is about to be done), a case goes
 * by, a side remark, the work is over (before the outputs are written). The use case calls
 * what is given and prints nothing itself; the CLI's reporters draw it (`cli/progress-writer.ts`).
 */
import type { MessageWords } from '../core/message-words.js';

export interface WorkReporter<Start, Case> {
  /** What is about to be done, before the first request. */
  readonly onStart?: (start: Start) => void;
  /** A case (or an audit's request and verdict) went by. */
  readonly onCase?: (event: Case) => void;
  /**
   * A side remark (a kept price, a question set that differs); `words` is the same remark
   * naming the options it mentions, for a caller that spells them its own way.
   */
  readonly onNote?: (note: string, words: MessageWords) => void;
  /** Sending is over (finished, stopped or interrupted): a progress bar can be cleared. */
  readonly onFinish?: () => void;
}
