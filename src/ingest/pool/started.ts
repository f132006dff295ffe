import { parentPort } from "node:worker_threads";

/** Key of the message a parse worker posts when it starts a task: the pool's timeout runs from then. */
export const PARSE_STARTED = "ferret.parseStarted";

/** Tells the pool that task `id` has started in this worker (no-op outside a worker). */
export function announceStart(id: number): void {
  parentPort?.postMessage({ [PARSE_STARTED]: id });
}

/** The task id of a worker message, when it is a start announcement. */
export function startedId(message: unknown): number | undefined {
  if (message === null || typeof message !== "object" || !(PARSE_STARTED in message)) return undefined;
  const id = (message as Record<string, unknown>)[PARSE_STARTED];
  return typeof id === "number" ? id : undefined;
}
