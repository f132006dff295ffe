import { FerretError } from "../spec/errors.js";

/** No key, a malformed, unknown or revoked key, or a token that does not verify. */
export class UnauthorizedError extends FerretError {
  constructor(message: string) {
    super("UnauthorizedError", message, { category: "user" });
  }
}

/** The principal is known but may not do this (upload without a write role). */
export class ForbiddenError extends FerretError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super("ForbiddenError", message, { category: "user", context });
  }
}

/** Nothing the principal may read has this id (missing and not readable look the same). */
export class NotFoundError extends FerretError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super("NotFoundError", message, { category: "user", context });
  }
}

/** The key (or principal) used up its rate: try again after `retryAfterMs`. */
export class RateLimitedError extends FerretError {
  readonly retryAfterMs: number;
  constructor(message: string, retryAfterMs: number) {
    super("RateLimitedError", message, { category: "user", context: { retryAfterMs } });
    this.retryAfterMs = retryAfterMs;
  }
}

/** Every worker is busy and the queue is full (or the server is shutting down). */
export class OverloadedError extends FerretError {
  readonly retryAfterMs: number;
  constructor(message: string, retryAfterMs = 1000) {
    super("OverloadedError", message, { category: "system", context: { retryAfterMs } });
    this.retryAfterMs = retryAfterMs;
  }
}

/** A request body or upload over its size limit. */
export class PayloadTooLargeError extends FerretError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super("PayloadTooLargeError", message, { category: "user", context });
  }
}

const STATUS: Record<string, number> = {
  UnauthorizedError: 401,
  ForbiddenError: 403,
  AccessDeniedError: 403,
  NotFoundError: 404,
  PayloadTooLargeError: 413,
  LimitExceededError: 413,
  RateLimitedError: 429,
  OverloadedError: 503,
  StoreBusyError: 503,
  UpstreamError: 502,
};

/** The HTTP status of an error: by name where it has one, else by category (user 400, upstream 502, system 500). */
export function statusOf(error: unknown): number {
  if (!(error instanceof FerretError)) return 500;
  const byName = STATUS[error.name];
  if (byName !== undefined) return byName;
  return error.category === "user" ? 400 : error.category === "upstream" ? 502 : 500;
}

/** What a client is told: the message of its own mistakes; for the server's, only the name and the request id. */
export function errorBody(
  error: unknown,
  requestId: string,
): { error: { name: string; message: string; requestId: string } } {
  const status = statusOf(error);
  const name = error instanceof FerretError ? error.name : "InternalError";
  const message =
    error instanceof FerretError && (status < 500 || status === 503)
      ? error.message
      : "The server failed to handle this request; its log has the details under this request id.";
  return { error: { name, message, requestId } };
}

/** Seconds for a Retry-After header (at least 1). */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (error instanceof RateLimitedError || error instanceof OverloadedError)
    return Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  if (error instanceof FerretError && error.name === "StoreBusyError") return 1;
  return undefined;
}
