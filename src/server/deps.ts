import type { Ferret } from "../index.js";
import type { CheckpointGate } from "./checkpoint-gate.js";
import type { ServeConfig } from "./config.js";
import type { JobRegistry } from "./jobs.js";
import type { ConcurrencyLimiter } from "./limits/concurrency.js";
import type { ServerMetrics } from "./metrics.js";
import type { RunService } from "./run-service.js";

/** What every route is built with. */
export interface ServerDeps {
  ferret: Ferret;
  config: ServeConfig;
  runs: RunService;
  limiter: ConcurrencyLimiter;
  gate: CheckpointGate;
  jobs: JobRegistry;
  metrics: ServerMetrics;
}
