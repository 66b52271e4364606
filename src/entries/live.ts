/**
 * `decidekit/live`: the live monitor. `openLive` polls a server one case at a time and
 * scores each answer as `bench` does; the monitor's pure state machine (`reduceLive`) and
 * screen (`renderLive`, lines for a terminal of a given size) turn its events into a view.
 */
export {
  LiveFirstContactError,
  openLive,
  type LiveEnvironment,
  type LiveHandlers,
  type LivePoll,
  type LiveRequest,
  type LiveSession,
} from '../app/live/run-live.js';
export {
  createLiveState,
  reduce as reduceLive,
  type LiveEvent,
  type LiveInfo,
  type LiveSettings,
  type LiveState,
} from '../monitor/live-state.js';
export { renderLive, type RenderLiveOptions } from '../monitor/render-live.js';
export { summarizeWindow, type WindowDecision, type WindowSummary } from '../core/live/window-summary.js';
