import type { Logger } from "pino";
import type { Caller } from "./run-service.js";

/** What middleware puts on a request's context. */
export interface ServerEnv {
  Variables: {
    requestId: string;
    log: Logger;
    /** Set by the auth middleware on every `/v1` and `/mcp` request. */
    caller: Caller;
  };
}
