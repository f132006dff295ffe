/**
 * Web pages into a documents source: a page, a crawl from it (same origin, bounded depth and page count), or
 * the pages a sitemap lists. robots.txt is obeyed, each host is paced, every fetch is guarded (see
 * `fetchPage`), and a page re-ingested with its stored `ETag`/`Last-Modified` that answers 304 is skipped.
 */
import type { ChunkRecord } from "../../spec/document.js";
import { FerretError, LimitExceededError } from "../../spec/errors.js";
import { DEFAULT_TENANT } from "../../spec/principal.js";
import type { StoreV1 } from "../../spec/store.js";
import { decodeText } from "../decode.js";
import { emptyIngestSummary, type IngestSummary } from "../ingest.js";
import { type IngestLimits, resolveLimits } from "../limits.js";
import { loadHtml } from "../loaders/html.js";
import { prepareDocument } from "../pool/parse-file.js";
import { sourceName } from "../sources.js";
import type { LoadedDocument } from "../types.js";
import { createWebDispatcher, DEFAULT_USER_AGENT, type FetchedPage, fetchPage, httpUrl } from "./fetch-page.js";
import { createHostRate, type HostRate } from "./host-rate.js";
import { pageKey, sameOriginLinks } from "./links.js";
import { createRobotsRules, MAX_ROBOTS_BYTES, type RobotsRules } from "./robots.js";
import { parseSitemap } from "./sitemap.js";

export interface WebIngestOptions {
  store: StoreV1;
  /** Page URLs to start from (or sitemap URLs, with `sitemap`). */
  urls: string[];
  /** The URLs are sitemaps (or sitemap indexes): ingest the pages they list. */
  sitemap?: boolean;
  tenant?: string;
  /** Default: `web_` and the first URL's host in lower_snake_case. */
  source?: string;
  description?: string;
  acl?: string[];
  /** Links followed from the start pages, on their origin: 0 (default) fetches the given pages only. */
  depth?: number;
  /** Pages fetched in this run, at most; default 100. */
  maxPages?: number;
  /** Time between two requests to one host, at least; default 1,000 ms (a robots.txt `Crawl-delay` can raise it). */
  perHostIntervalMs?: number;
  /** Response bytes per page, at most; default 5 MiB. */
  maxPageBytes?: number;
  /** Per request, redirects and body included; default 15,000 ms. */
  timeoutMs?: number;
  /** Fetch private, loopback and link-local addresses too (off: a server-side ingest cannot reach the internal network). */
  allowPrivate?: boolean;
  /** Obey robots.txt (default true). */
  robots?: boolean;
  userAgent?: string;
  /** Remove pages of the source this run did not see (only meaningful for a sitemap or a full crawl). */
  prune?: boolean;
  limits?: Partial<IngestLimits>;
  embed?: (chunks: ChunkRecord[]) => Promise<void>;
  onProgress?: (event: { phase: string; done: number; total: number; file?: string }) => void;
  /** Tests pace hosts without waiting. */
  hostRate?: HostRate;
}

export const DEFAULT_MAX_PAGES = 100;
export const DEFAULT_MAX_PAGE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_WEB_TIMEOUT_MS = 15_000;
/** Sitemaps read through indexes, at most. */
const MAX_SITEMAPS = 50;
/** Links kept in a page's metadata, so a crawl can continue past a page that answered 304. */
const STORED_LINKS = 200;

/** A web source's default name: `web_` and the host, lower_snake_case (`web_docs_example_org`). */
export function webSourceName(url: string): string {
  return sourceName(`web_${httpUrl(url).hostname}`);
}

interface Crawl {
  options: WebIngestOptions;
  rate: HostRate;
  robots: RobotsRules | undefined;
  dispatcher: ReturnType<typeof createWebDispatcher>;
  maxBytes: number;
  timeoutMs: number;
  interval: number;
}

async function get(crawl: Crawl, url: string, headers: Record<string, string> = {}, maxBytes = crawl.maxBytes) {
  return fetchPage({
    url,
    dispatcher: crawl.dispatcher,
    allowPrivate: crawl.options.allowPrivate ?? false,
    maxBytes,
    timeoutMs: crawl.timeoutMs,
    headers,
    userAgent: crawl.options.userAgent,
    beforeRequest: async (hop) => {
      await crawl.robots?.check(hop);
      await crawl.rate.wait(hop, Math.max(crawl.interval, crawl.robots?.crawlDelayMs(hop) ?? 0));
    },
  });
}

function contentType(page: FetchedPage): string {
  return (page.headers["content-type"] ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? "";
}

/** The pages the sitemaps list (indexes followed), deduplicated, at most `maxPages`. */
async function sitemapPages(crawl: Crawl, sitemaps: string[], maxPages: number, summary: IngestSummary) {
  const pages = new Set<string>();
  const queue = [...sitemaps];
  const read = new Set<string>();
  while (queue.length > 0 && read.size < MAX_SITEMAPS && pages.size < maxPages) {
    const next = queue.shift() as string;
    if (read.has(next)) continue;
    read.add(next);
    try {
      const page = await get(crawl, next);
      if (page.status !== 200) throw new Error(`HTTP ${page.status}`);
      const entries = parseSitemap(decodeText({ bytes: page.body }).text, next);
      for (const loc of entries.sitemaps) queue.push(httpUrl(loc, next).href);
      for (const loc of entries.pages) {
        if (pages.size >= maxPages) break;
        pages.add(pageKey(httpUrl(loc, next)));
      }
    } catch (error) {
      summary.failed.push({ file: next, reason: (error as Error).message });
    }
  }
  return [...pages];
}

/** A fetched page as a loaded document (HTML through the boilerplate removal; plain text as is). */
async function loadPage(id: string, page: FetchedPage, limits: IngestLimits): Promise<LoadedDocument | string> {
  const type = contentType(page);
  let doc: LoadedDocument;
  const warnings: string[] = [];
  if (type === "text/html" || type === "application/xhtml+xml" || type === "") {
    const loaded = await loadHtml({ bytes: page.body, relPath: id, limits });
    const first = loaded.docs[0];
    if (!first) return "no text to index";
    doc = first;
    warnings.push(...loaded.warnings);
  } else if (type === "text/plain" || type === "text/markdown") {
    const text = decodeText({ bytes: page.body }).text.trim();
    doc = { id, title: text.split("\n", 1)[0]?.slice(0, 120) || id, text, acl: [], metadata: {} };
  } else {
    return `content type ${type} is not a web page`;
  }
  const metadata: Record<string, unknown> = { ...doc.metadata, url: page.url };
  if (page.headers.etag) metadata.etag = page.headers.etag;
  if (page.headers["last-modified"]) metadata.lastModified = page.headers["last-modified"];
  const updatedAt = doc.updatedAt ?? lastModifiedIso(page.headers["last-modified"]);
  return { ...doc, id, metadata, ...(updatedAt ? { updatedAt } : {}) };
}

function lastModifiedIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Fetches, loads and writes web pages into one documents source; see `WebIngestOptions`. */
export async function ingestWeb(options: WebIngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  const { store } = options;
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const first = options.urls[0];
  if (first === undefined) throw new FerretError("InvalidInputError", "no URL to ingest", { category: "user" });
  const seeds = options.urls.map((u) => pageKey(httpUrl(u)));
  const source = options.source ?? webSourceName(first);
  const limits = resolveLimits(options.limits);
  const maxPages = Math.max(1, options.maxPages ?? DEFAULT_MAX_PAGES);
  const depth = Math.max(0, Math.min(options.depth ?? 0, 10));
  const dispatcher = createWebDispatcher({ allowPrivate: options.allowPrivate ?? false });
  const crawl: Crawl = {
    options,
    rate: options.hostRate ?? createHostRate(),
    robots: undefined,
    dispatcher,
    maxBytes: options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
    timeoutMs: options.timeoutMs ?? DEFAULT_WEB_TIMEOUT_MS,
    interval: Math.max(0, options.perHostIntervalMs ?? 1000),
  };
  if (options.robots !== false) {
    const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    crawl.robots = createRobotsRules({
      userAgent,
      fetchText: async (url) => {
        const page = await fetchPage({
          url: url.href,
          dispatcher,
          allowPrivate: options.allowPrivate ?? false,
          maxBytes: MAX_ROBOTS_BYTES,
          timeoutMs: crawl.timeoutMs,
          userAgent,
          beforeRequest: (hop) => crawl.rate.wait(hop, crawl.interval),
        });
        return { status: page.status, text: decodeText({ bytes: page.body }).text };
      },
    });
  }
  const summary = emptyIngestSummary([source]);
  const progress = options.onProgress ?? (() => undefined);
  try {
    await store.putSource({
      name: source,
      tenant,
      kind: "documents",
      description: options.description ?? `Web pages from ${httpUrl(first).host}`,
      acl: options.acl ?? [],
      path: first,
    });
    const known = await store.documentHashes(tenant, source);
    const reader = { tenant, user: "ferret-ingest", roles: ["*"] };
    const start = options.sitemap ? await sitemapPages(crawl, seeds, maxPages, summary) : seeds;
    const queue = start.map((url) => ({ url, level: 0 }));
    const queued = new Set(start);
    const seen = new Set<string>();
    let fetched = 0;
    while (queue.length > 0 && fetched < maxPages) {
      const { url, level } = queue.shift() as { url: string; level: number };
      fetched++;
      progress({ phase: "load", done: fetched, total: Math.min(maxPages, queued.size), file: url });
      const follow = (links: readonly string[]) => {
        if (level >= depth) return;
        for (const link of links)
          if (!queued.has(link)) {
            queued.add(link);
            queue.push({ url: link, level: level + 1 });
          }
      };
      try {
        const stored = known.has(url) ? await store.getDocument(url, reader, { source }) : undefined;
        const headers: Record<string, string> = {};
        const etag = stored?.metadata.etag;
        const lastModified = stored?.metadata.lastModified;
        if (typeof etag === "string") headers["if-none-match"] = etag;
        if (typeof lastModified === "string") headers["if-modified-since"] = lastModified;
        const page = await get(crawl, url, headers);
        if (page.status === 304 && stored) {
          seen.add(url);
          summary.unchanged++;
          const links = stored.metadata.links;
          follow(Array.isArray(links) ? links.filter((l): l is string => typeof l === "string") : []);
          continue;
        }
        if (page.status < 200 || page.status >= 300) {
          summary.failed.push({ file: url, reason: `HTTP ${page.status}` });
          if (known.has(url) && page.status !== 404 && page.status !== 410) seen.add(url);
          continue;
        }
        const loaded = await loadPage(url, page, limits);
        if (typeof loaded === "string") {
          summary.skipped.push({ file: url, reason: loaded });
          continue;
        }
        const links = contentType(page).includes("html")
          ? sameOriginLinks(decodeText({ bytes: page.body }).text, page.url)
          : [];
        if (links.length > 0) loaded.metadata.links = links.slice(0, STORED_LINKS);
        follow(links);
        const prepared = prepareDocument(loaded, { source, tenant, sourceAcl: options.acl ?? [], known });
        if (prepared.kind === "empty") {
          summary.skipped.push({ file: url, reason: "no text to index" });
          continue;
        }
        seen.add(url);
        if (prepared.kind === "unchanged") {
          summary.unchanged++;
          continue;
        }
        if (options.embed && prepared.write.chunks.length > 0) await options.embed(prepared.write.chunks);
        await store.writeDocuments([prepared.write]);
        summary.chunks += prepared.write.chunks.length;
        if (known.has(url)) summary.updated++;
        else summary.added++;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const reason = message.startsWith(`${url}: `) ? message.slice(url.length + 2) : message;
        if (error instanceof LimitExceededError) summary.skipped.push({ file: url, reason });
        else summary.failed.push({ file: url, reason });
        if (known.has(url)) seen.add(url);
      }
    }
    if (queue.length > 0)
      summary.warnings.push({
        file: first,
        message: `stopped at the page limit (${maxPages}); ${queue.length} queued pages left`,
      });
    if (options.prune && queue.length === 0) {
      const gone = [...known.keys()].filter((id) => !seen.has(id));
      if (gone.length > 0) await store.removeDocuments(tenant, gone, { source });
      summary.removed = gone.length;
    }
  } finally {
    await dispatcher.close();
  }
  summary.ms = Math.round(performance.now() - started);
  return summary;
}
