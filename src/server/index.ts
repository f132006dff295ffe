export { createServerApp, type ServerApp } from "./app.js";
export {
  DEFAULT_SERVE_CONFIG,
  isLoopback,
  type RunMaxima,
  readServeSection,
  resolveServeConfig,
  type ServeConfig,
} from "./config.js";
export { type RunningServer, startServer } from "./serve.js";
