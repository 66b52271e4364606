/**
 * The parts of a run's reports that hold every case (the Markdown trace, the JSON
 * document's decisions, the HTML trace table), rendered as the cases go by in the one pass
 * that also gathers the run's numbers (`analyzeRun`'s `visit`), and the reports rendered
 * with them: a run is read once for every report written of it. The Markdown trace and the
 * JSON decisions come before nothing that needs the pass but are written after the header
 * that does, so they wait in a temp file (`TextSpool`); the HTML table is bounded.
 */
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { ReportedRun } from '../../core/bench/run.js';
import type { RunStatistics } from '../../core/bench/run-statistics.js';
import type { FinishedBench } from '../../core/bench/finished-bench.js';
import { BenchJsonDecisionRenderer, renderBenchJsonChunks } from '../../reports/bench/bench-json.js';
import { HtmlTraceRows, renderBenchHtmlPage } from '../../reports/bench/bench-html.js';
import { MarkdownTraceRenderer, renderBenchMarkdownChunks } from '../../reports/bench/bench-markdown.js';
import { TextSpool } from './text-spool.js';

/** The reports a run is written as whole (the terminal summary reads no case beyond the listings). */
export type WholeReportFormat = 'markdown' | 'json' | 'html';

export interface ReportSettings {
  readonly redactHost: boolean;
  readonly statistics: RunStatistics | null;
  /** Case id -> state, for the Markdown trace's previews. */
  readonly states?: ReadonlyMap<string, string | object> | undefined;
}

/** Collects the per-case parts of the reports in `formats`; `dispose` removes what waits on disk. */
export class ReportTraces {
  readonly #markdown: { renderer: MarkdownTraceRenderer; spool: TextSpool } | null;
  readonly #json: { renderer: BenchJsonDecisionRenderer; spool: TextSpool } | null;
  readonly #html: HtmlTraceRows | null;

  constructor(formats: readonly WholeReportFormat[], states?: ReadonlyMap<string, string | object>) {
    this.#markdown = formats.includes('markdown')
      ? { renderer: new MarkdownTraceRenderer(states), spool: new TextSpool() }
      : null;
    this.#json = formats.includes('json')
      ? { renderer: new BenchJsonDecisionRenderer(), spool: new TextSpool() }
      : null;
    this.#html = formats.includes('html') ? new HtmlTraceRows() : null;
  }

  /** Feeds one case, in run order (what `analyzeRun` calls as its `visit`). */
  readonly visit = (c: CaseResult): void => {
    if (this.#markdown !== null) this.#markdown.spool.write(this.#markdown.renderer.piece(c));
    if (this.#json !== null) this.#json.spool.write(this.#json.renderer.piece(c));
    this.#html?.add(c);
  };

  /** The JSON document's decision rows collected, or undefined when JSON was not asked for. */
  jsonDecisions(): FinishedBench['decisionRows'] {
    const json = this.#json;
    return json === null
      ? undefined
      : { rows: json.renderer.rows, pieces: { [Symbol.iterator]: () => json.spool.pieces() } };
  }

  /** The report in `format`, in pieces, from the parts collected (the run is not read again). */
  chunks(run: ReportedRun, format: WholeReportFormat, settings: ReportSettings): Iterable<string> {
    const { redactHost, statistics, states } = settings;
    if (format === 'json') {
      this.#need(this.#json, format);
      return renderBenchJsonChunks(run, { statistics, redactHost }, this.jsonDecisions());
    }
    if (format === 'html')
      return [renderBenchHtmlPage(run, { redactHost, statistics }, this.#need(this.#html, format))];
    const markdown = this.#need(this.#markdown, format);
    return renderBenchMarkdownChunks(
      run,
      { redactHost, statistics, ...(states ? { states } : {}) },
      { longestTicks: markdown.renderer.longestTicks, pieces: { [Symbol.iterator]: () => markdown.spool.pieces() } },
    );
  }

  dispose(): void {
    this.#markdown?.spool.dispose();
    this.#json?.spool.dispose();
  }

  #need<T>(part: T | null, format: WholeReportFormat): T {
    if (part === null) throw new Error(`ReportTraces: the ${format} report was not collected`);
    return part;
  }
}
