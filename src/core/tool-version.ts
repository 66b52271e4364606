/** The tool version recorded in every run, audit and probe (kept equal to package.json's by a test). */
export const TOOL_VERSION = '0.1.0';
