/** The tool version recorded in every run (kept equal to package.json's by a test). */
export { TOOL_VERSION } from '../core/tool-version.js';
