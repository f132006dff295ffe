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

/** The store itself failed (as opposed to finding nothing). Subclasses name the driver condition. */
export class StoreError extends FerretError {
  constructor(message: string, cause?: unknown, context: Record<string, unknown> = {}, name = "StoreError") {
    super(name, message, { category: "system", cause, context });
  }
}

/** Another connection holds the lock the operation needed, past the busy timeout (SQLITE_BUSY, SQLITE_LOCKED). */
export class StoreBusyError extends StoreError {
  constructor(message: string, cause?: unknown, context: Record<string, unknown> = {}) {
    super(message, cause, context, "StoreBusyError");
  }
}

/** The disk (or the database's page limit) is full: nothing of the failed write was kept (SQLITE_FULL). */
export class StoreFullError extends StoreError {
  constructor(message: string, cause?: unknown, context: Record<string, unknown> = {}) {
    super(message, cause, context, "StoreFullError");
  }
}

/** The database file cannot be written: read-only file, folder or connection (SQLITE_READONLY). */
export class StoreReadOnlyError extends StoreError {
  constructor(message: string, cause?: unknown, context: Record<string, unknown> = {}) {
    super(message, cause, context, "StoreReadOnlyError");
  }
}

/** The database file is damaged or is not a database (SQLITE_CORRUPT, SQLITE_NOTADB). */
export class StoreCorruptError extends StoreError {
  constructor(message: string, cause?: unknown, context: Record<string, unknown> = {}) {
    super(message, cause, context, "StoreCorruptError");
  }
}

/** A write broke a constraint of the store's schema (SQLITE_CONSTRAINT_*): a duplicate key, a dangling reference. */
export class StoreConstraintError extends StoreError {
  constructor(message: string, cause?: unknown, context: Record<string, unknown> = {}) {
    super(message, cause, context, "StoreConstraintError");
  }
}

/** A principal asked for something it may not read. */
export class AccessDeniedError extends FerretError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super("AccessDeniedError", message, { category: "user", context });
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

/**
 * What went wrong with a read-only query, the same in every store: the adapter maps its driver's errors to
 * these codes, so callers switch on `code` and never read a database's own message.
 * - `no_such_table`, `no_such_column`: a name the principal cannot see (missing and unreadable look the same);
 * - `syntax`: the statement does not parse; `invalid`: it parses but cannot run (types, functions, ...);
 * - `read_only`: not one read-only SELECT (refused before it ran, or by the database);
 * - `timeout`: stopped at its time limit or interrupted; `memory`, `value_size`: over a resource cap.
 */
export type StoreQueryCode =
  | "no_such_table"
  | "no_such_column"
  | "syntax"
  | "invalid"
  | "read_only"
  | "timeout"
  | "memory"
  | "value_size";

/** Base class of the errors `TableStoreV1.querySql` rejects with: a user error with a `code`. */
export class StoreQueryError extends FerretError {
  readonly code: StoreQueryCode;
  constructor(
    name: string,
    message: string,
    options: { code: StoreQueryCode; cause?: unknown; context?: Record<string, unknown> },
  ) {
    // `context.code` stays the driver's own code where the adapter gives one (`SQLITE_ERROR`, `42P01`).
    super(name, message, { category: "user", cause: options.cause, context: options.context ?? {} });
    this.code = options.code;
  }
}

/** Read-only SQL was asked to write, attach, or run more than one statement (`code: "read_only"`). */
export class SqlRejectedError extends StoreQueryError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super("SqlRejectedError", message, { code: "read_only", context });
  }
}

/**
 * A query the database could not compile or run: a table the principal cannot see (`missingTable`; missing and
 * unreadable look the same), an unknown column (`column`), a syntax error or another invalid query. `detail` is
 * the database's own short description (`near "WHERE": syntax error`), to show the model, never to parse.
 */
export class SqlInvalidError extends StoreQueryError {
  readonly reason: "missing_table" | "missing_column" | "syntax" | "invalid";
  readonly detail: string;
  readonly missingTable?: string;
  readonly column?: string;
  constructor(
    message: string,
    options: {
      reason: "missing_table" | "missing_column" | "syntax" | "invalid";
      detail: string;
      missingTable?: string;
      column?: string;
      cause?: unknown;
      context?: Record<string, unknown>;
    },
  ) {
    const { reason, detail, missingTable, column } = options;
    const code = reason === "missing_table" ? "no_such_table" : reason === "missing_column" ? "no_such_column" : reason;
    super("SqlInvalidError", message, {
      code,
      cause: options.cause,
      context: { ...options.context, reason, detail, missingTable, column },
    });
    this.reason = reason;
    this.detail = detail;
    if (missingTable !== undefined) this.missingTable = missingTable;
    if (column !== undefined) this.column = column;
  }
}

/** A query ran past its time limit (or was interrupted) and was stopped; the store is unaffected. */
export class SqlTimeoutError extends StoreQueryError {
  readonly timeoutMs?: number;
  constructor(
    message: string,
    options: { timeoutMs?: number; cause?: unknown; context?: Record<string, unknown> } = {},
  ) {
    super("SqlTimeoutError", message, {
      code: "timeout",
      cause: options.cause,
      context: { ...options.context, timeoutMs: options.timeoutMs },
    });
    if (options.timeoutMs !== undefined) this.timeoutMs = options.timeoutMs;
  }
}

/** A query needed more of a capped resource than it may have (`memory`: working memory; `value_size`: one value). */
export class SqlLimitError extends StoreQueryError {
  readonly limit: "memory" | "value_size";
  readonly capBytes?: number;
  constructor(
    message: string,
    options: { limit: "memory" | "value_size"; capBytes?: number; cause?: unknown; context?: Record<string, unknown> },
  ) {
    super("SqlLimitError", message, {
      code: options.limit,
      cause: options.cause,
      context: { ...options.context, limit: options.limit, capBytes: options.capBytes },
    });
    this.limit = options.limit;
    if (options.capBytes !== undefined) this.capBytes = options.capBytes;
  }
}

/**
 * An optional package a chosen feature needs is not installed: `local:` embedders and rerankers need
 * @huggingface/transformers, PDF ingestion pdfjs-dist, an explicitly approximate vector search usearch.
 * `instead` names what the user can do without the package.
 */
export class MissingDependencyError extends FerretError {
  readonly packageName: string;
  constructor(
    packageName: string,
    feature: string,
    cause?: unknown,
    instead = "or choose another embedder, e.g. none or openai:<model>",
  ) {
    super(
      "MissingDependencyError",
      `${feature} needs the optional package ${packageName}, which is not installed: run \`npm install ${packageName}\` (${instead}).`,
      { category: "user", cause, context: { package: packageName, feature } },
    );
    this.packageName = packageName;
  }
}
