/**
 * What `ferret`'s exit status means (documented in docs/cli.md). A refusal is a finished run, not a failure:
 * `ask` exits 0 with `status: "refused"` unless the refusal came from an infrastructure failure.
 */
export const EXIT = {
  /** The command did what was asked (an answer or a refusal from the evidence counts). */
  ok: 0,
  /** The command ran but did not reach its goal: nothing ingested, no such run or key, a failed eval gate or doctor check. */
  failed: 1,
  /** Usage: a bad flag or argument, an invalid config file, no knowledge base where one is needed. */
  usage: 2,
  /** Infrastructure: a model, embedder or store that could not be reached or used. */
  infrastructure: 3,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
