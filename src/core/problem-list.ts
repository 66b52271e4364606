import { InvalidInputError, type InputProblem } from './errors.js';

/** Problems kept per validation; the rest are counted. */
export const DEFAULT_PROBLEM_CAP = 50;

/**
 * Collects every problem of an input file, keeping the first `cap` and counting the rest,
 * so a file with a million bad lines neither floods the terminal nor the heap.
 */
export class ProblemList {
  readonly kept: InputProblem[] = [];
  omitted = 0;

  constructor(readonly cap: number = DEFAULT_PROBLEM_CAP) {}

  add(problem: InputProblem): void {
    if (this.kept.length < this.cap) this.kept.push(problem);
    else this.omitted++;
  }

  /**
   * Takes in the problems of an InvalidInputError from another file (several files checked
   * in one command): its kept problems count against the cap, its omitted ones are counted.
   */
  addError(error: InvalidInputError): void {
    for (const problem of error.problems) this.add(problem);
    this.omitted += error.omitted;
  }

  get count(): number {
    return this.kept.length + this.omitted;
  }

  /** The InvalidInputError carrying the problems kept and the count of the rest. */
  toError(): InvalidInputError {
    return new InvalidInputError(this.kept, this.omitted);
  }

  /** Throws an InvalidInputError carrying the problems when there are any. */
  throwIfAny(): void {
    if (this.count > 0) throw this.toError();
  }
}

/** Problems with one cause: the same file, field and message but for quoted values and numbers. */
export interface ProblemGroup {
  /** The first problem, shown in full. */
  readonly first: InputProblem;
  /** Lines of the group's kept problems, in order (null for whole-file problems). */
  readonly lines: readonly (number | null)[];
  /** The group's kept problems, in order (the first included). */
  readonly members: readonly InputProblem[];
}

/** Groups kept problems by cause, in order of first appearance. */
export function groupProblems(problems: readonly InputProblem[]): ProblemGroup[] {
  const groups = new Map<string, { first: InputProblem; lines: (number | null)[]; members: InputProblem[] }>();
  for (const p of problems) {
    const shape = p.message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi, '#');
    const key = `${p.file}\u0000${p.field ?? ''}\u0000${shape}`;
    const group = groups.get(key);
    if (group) {
      group.lines.push(p.line);
      group.members.push(p);
    } else groups.set(key, { first: p, lines: [p.line], members: [p] });
  }
  return [...groups.values()];
}
