export {
  createEventFormatter,
  describeCall,
  describeOutcome,
  formatEvent,
  formatMs,
  formatTrace,
  formatUsage,
} from "./format.js";
export {
  AGENT_NAME,
  agentAttributes,
  exportRunSpans,
  llmCallAttributes,
  type SpanSpec,
  spansFromEvents,
  toolCallAttributes,
} from "./otel.js";
export { createTraceRecorder, type TraceEventInput, type TraceRecorder } from "./recorder.js";
