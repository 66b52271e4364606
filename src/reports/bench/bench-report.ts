/** Every renderer of a finished benchmark run, for callers that load them together. */
export { renderBenchJson, renderBenchJsonChunks } from './bench-json.js';
export { renderBenchMarkdown } from './bench-markdown.js';
export { renderBenchTerminal } from './bench-terminal.js';
export { renderBenchEnding, renderBenchStart } from './bench-messages.js';
export { renderFinishedBench } from './bench-outcome.js';
