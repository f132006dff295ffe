/** One HTTP(S) GET with the web ingest's guards: scheme, address, redirects, size cap and timeout. */
import { Agent, type Dispatcher, request } from "undici";
import { InvalidInputError, LimitExceededError, UpstreamError } from "../../spec/errors.js";
import { checkLiteralHost, guardedLookup } from "./address-guard.js";

export interface FetchPageOptions {
  url: string;
  /** From `createWebDispatcher`: its connections resolve names through the address guard. */
  dispatcher: Dispatcher;
  allowPrivate: boolean;
  /** Response body bytes, at most; a larger body is a `LimitExceededError`. */
  maxBytes: number;
  /** The whole exchange (every redirect and the body), at most. */
  timeoutMs: number;
  maxRedirects?: number;
  /** Extra request headers (`If-None-Match`, `If-Modified-Since`). */
  headers?: Record<string, string>;
  /** Called for every URL about to be requested, the first and each redirect's (robots.txt check). */
  beforeRequest?: (url: URL) => Promise<void>;
  userAgent?: string;
}

export interface FetchedPage {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Empty for a 304. */
  body: Uint8Array;
}

export const DEFAULT_USER_AGENT = "ferret-ingest/0.1 (+https://github.com/ferret)";

/** An undici agent whose DNS lookups refuse non-public addresses unless `allowPrivate`. */
export function createWebDispatcher(options: { allowPrivate: boolean }): Agent {
  return new Agent({ connect: { lookup: guardedLookup(options.allowPrivate) }, connections: 4 });
}

/** Parses an http(s) URL, or throws an `InvalidInputError` naming it. */
export function httpUrl(raw: string, base?: string): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch (error) {
    throw new InvalidInputError(`${raw}: not a URL`, { field: "url" }, error);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidInputError(`${url.href}: only http and https URLs are fetched`, { field: "url" });
  if (url.username || url.password)
    throw new InvalidInputError(`${url.protocol}//${url.host}: URLs with credentials are not fetched`, {
      field: "url",
    });
  return url;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

async function readCapped(body: Dispatcher.ResponseData["body"], url: string, maxBytes: number) {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of body) {
    size += (part as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw new LimitExceededError(`${url}: response is over the cap of ${maxBytes} bytes (maxPageBytes)`, {
        file: url,
        limit: "maxPageBytes",
        cap: maxBytes,
        value: size,
      });
    }
    parts.push(part as Buffer);
  }
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * GETs a page, following up to `maxRedirects` redirects by hand so each hop's scheme, address and robots
 * rule are checked again. Names resolve through the dispatcher's guarded lookup; IP literals are checked here.
 */
export async function fetchPage(options: FetchPageOptions): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const maxRedirects = options.maxRedirects ?? 5;
  let url = httpUrl(options.url);
  for (let hop = 0; ; hop++) {
    checkLiteralHost(url, options.allowPrivate);
    await options.beforeRequest?.(url);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: "GET",
        dispatcher: options.dispatcher,
        signal,
        headers: {
          "user-agent": options.userAgent ?? DEFAULT_USER_AGENT,
          accept: "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5",
          ...options.headers,
        },
      });
    } catch (error) {
      if (error instanceof Error && error.name === "BlockedAddressError") throw error;
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof Error && cause.name === "BlockedAddressError") throw cause;
      if (signal.aborted)
        throw new UpstreamError(`${url.href}: no answer within ${options.timeoutMs} ms`, { cause: error });
      throw new UpstreamError(`${url.href}: ${(error as Error).message}`, { cause: error });
    }
    const headers = flatHeaders(response.headers);
    const location = headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && response.statusCode !== 304 && location) {
      await response.body.dump();
      if (hop >= maxRedirects) throw new UpstreamError(`${options.url}: more than ${maxRedirects} redirects`);
      url = httpUrl(location, url.href);
      continue;
    }
    try {
      let body = new Uint8Array();
      if (response.statusCode === 304) await response.body.dump();
      else body = await readCapped(response.body, url.href, options.maxBytes);
      return { url: url.href, status: response.statusCode, headers, body };
    } catch (error) {
      if (signal.aborted)
        throw new UpstreamError(`${url.href}: no answer within ${options.timeoutMs} ms`, { cause: error });
      throw error;
    }
  }
}
