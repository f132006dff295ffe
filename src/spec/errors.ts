/** Who is at fault: the caller (bad input), this system, or a service upstream (model, embedder API). */
export type ErrorCategory = "user" | "system" | "upstream";

/** Base class: a stable `name`, a category the server maps to a status code, a cause and context. */
export class FerretError extends Error {
  readonly category: ErrorCategory;
  readonly context: Record<string, unknown>;

  constructor(
    name: string,
    message: string,
    options: { category: ErrorCategory; cause?: unknown; context?: Record<string, unknown> },
  ) {
    super(message, { cause: options.cause });
    this.name = name;
    this.category = options.category;
    this.context = options.context ?? {};
  }
}

/** Input that cannot be used as given: names the file, line and field where known. */
export class InvalidInputError extends FerretError {
  constructor(
    message: string,
    context: { file?: string; line?: number; field?: string } & Record<string, unknown> = {},
    cause?: unknown,
  ) {
    super("InvalidInputError", message, { category: "user", context, cause });
  }
}

/** The store holds vectors of another embedder or dimension. */
export class EmbedderMismatchError extends FerretError {
  constructor(message: string, context: Record<string, unknown>) {
    super("EmbedderMismatchError", message, { category: "user", context });
  }
}

/** A model or embedding API failed after retries. */
export class UpstreamError extends FerretError {
  readonly status?: number;
  readonly retryAfterMs?: number;
  constructor(
    message: string,
    options: { status?: number; retryAfterMs?: number; cause?: unknown; context?: Record<string, unknown> } = {},
  ) {
    super("UpstreamError", message, { category: "upstream", cause: options.cause, context: options.context });
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The store itself failed (as opposed to finding nothing). */
export class StoreError extends FerretError {
  constructor(message: string, cause?: unknown, context: Record<string, unknown> = {}) {
    super("StoreError", message, { category: "system", cause, context });
  }
}

/** A principal asked for something it may not read. */
export class AccessDeniedError extends FerretError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super("AccessDeniedError", message, { category: "user", context });
  }
}

/** Read-only SQL was asked to write, attach, or run more than one statement. */
export class SqlRejectedError extends FerretError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super("SqlRejectedError", message, { category: "user", context });
  }
}

/** An input went over a decoding cap (file size, zip size, front matter, ...): the file is skipped, named with the cap. */
export class LimitExceededError extends FerretError {
  constructor(
    message: string,
    context: { file?: string; limit: string; cap: number; value?: number } & Record<string, unknown>,
    cause?: unknown,
  ) {
    super("LimitExceededError", message, { category: "user", context, cause });
  }
}
