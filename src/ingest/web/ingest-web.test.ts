import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_OWNER } from "../../spec/principal.js";
import type { StoreV1 } from "../../spec/store.js";
import { createSqliteStore } from "../../stores/sqlite/index.js";
import { ingestWeb } from "./ingest-web.js";
import { html, startTestSite, type TestSite } from "./web-test-server.js";

const PAGE = `<!doctype html><html><head><title>Lantern care</title></head><body>
<nav><a href="/">Home</a> <a href="/wicks">Wicks</a> <a href="https://elsewhere.invalid/x">Away</a></nav>
<main><h1>Lantern care</h1>
<p>Brass lanterns of the Quillby workshop need their glass chimneys wiped every ninth evening with a dry cloth.</p>
<p>Oil reservoirs should be drained before a lantern is stored for the winter months in the cellar.</p></main>
<footer>Copyright Quillby workshop, all rights kept</footer></body></html>`;

const WICKS = `<!doctype html><html><head><title>Wicks</title></head><body><main>
<p>Quillby wicks are woven from flax and trimmed square so the flame burns without smoke.</p>
<a href="/deeper">Deeper</a></main></body></html>`;

let dir: string;
let store: StoreV1;
let site: TestSite;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "ferret-web-"));
  store = await createSqliteStore({ path: join(dir, "t.db") });
  site = await startTestSite({
    "/robots.txt": (res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("User-agent: *\nDisallow: /private\n");
    },
    "/lanterns": html(PAGE, { etag: '"v1"', "last-modified": "Tue, 03 Mar 2026 10:00:00 GMT" }),
    "/wicks": html(WICKS),
    "/deeper": html("<main><p>Deeper page text about the storeroom shelves.</p></main>"),
    "/private": html("<main><p>Not for crawlers at all.</p></main>"),
  });
});

afterEach(async () => {
  await store.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = () => ({ store, allowPrivate: true, perHostIntervalMs: 0, source: "lamps" });

describe("ingestWeb", () => {
  it("fetches a page, removes its boilerplate and keeps the URL, ETag and Last-Modified", async () => {
    const url = `${site.origin}/lanterns`;
    const summary = await ingestWeb({ ...base(), urls: [url] });
    expect(summary).toMatchObject({ added: 1, failed: [], sources: ["lamps"] });
    const doc = await store.getDocument(url, LOCAL_OWNER, { source: "lamps" });
    expect(doc?.title).toBe("Lantern care");
    expect(doc?.text).toContain("glass chimneys wiped every ninth evening");
    expect(doc?.text).not.toContain("Copyright Quillby");
    expect(doc?.metadata).toMatchObject({ url, etag: '"v1"', lastModified: "Tue, 03 Mar 2026 10:00:00 GMT" });
    expect(doc?.updatedAt).toBe("2026-03-03T10:00:00.000Z");
  });

  it("sends the stored validators on re-ingest and skips a page that answers 304", async () => {
    const url = `${site.origin}/lanterns`;
    await ingestWeb({ ...base(), urls: [url] });
    site.routes.set("/lanterns", (res, headers) => {
      if (headers["if-none-match"] === '"v1"') {
        res.writeHead(304);
        res.end();
      } else html(PAGE.replace("ninth", "tenth"))(res, headers);
    });
    const again = await ingestWeb({ ...base(), urls: [url] });
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 1 });
    const second = site.requests.filter((r) => r.path === "/lanterns")[1];
    expect(second?.headers["if-none-match"]).toBe('"v1"');
    expect(second?.headers["if-modified-since"]).toBe("Tue, 03 Mar 2026 10:00:00 GMT");
    const doc = await store.getDocument(url, LOCAL_OWNER, { source: "lamps" });
    expect(doc?.text).toContain("ninth");
  });

  it("re-ingests a changed page when the server answers 200", async () => {
    const url = `${site.origin}/lanterns`;
    await ingestWeb({ ...base(), urls: [url] });
    site.routes.set("/lanterns", html(PAGE.replace("ninth", "tenth"), { etag: '"v2"' }));
    const again = await ingestWeb({ ...base(), urls: [url] });
    expect(again).toMatchObject({ updated: 1 });
    const doc = await store.getDocument(url, LOCAL_OWNER, { source: "lamps" });
    expect(doc?.text).toContain("tenth evening");
    expect(doc?.metadata.etag).toBe('"v2"');
  });

  it("follows same-origin links to the crawl depth only", async () => {
    const summary = await ingestWeb({ ...base(), urls: [`${site.origin}/lanterns`], depth: 1 });
    const paths = site.requests.map((r) => r.path);
    expect(paths).toContain("/wicks");
    expect(paths).not.toContain("/deeper");
    expect(summary.added).toBe(2);
    const deeper = await ingestWeb({ ...base(), urls: [`${site.origin}/lanterns`], depth: 2 });
    expect(deeper.added).toBe(1);
    expect(site.requests.map((r) => r.path)).toContain("/deeper");
  });

  it("stops at the page limit", async () => {
    const summary = await ingestWeb({ ...base(), urls: [`${site.origin}/lanterns`], depth: 3, maxPages: 2 });
    // The start page, then its first link ("/", which is missing here): two pages fetched, the rest left queued.
    expect(site.requests.map((r) => r.path).filter((p) => p !== "/robots.txt")).toEqual(["/lanterns", "/"]);
    expect(summary.failed).toEqual([{ file: `${site.origin}/`, reason: "HTTP 404" }]);
    expect(summary.warnings[0]?.message).toContain("page limit (2)");
  });

  it("obeys robots.txt", async () => {
    const summary = await ingestWeb({ ...base(), urls: [`${site.origin}/private`] });
    expect(summary.failed[0]?.reason).toContain("robots.txt");
    expect(site.requests.map((r) => r.path)).not.toContain("/private");
  });

  it("ingests the pages a sitemap index and its sitemap list", async () => {
    site.routes.set("/sitemap-index.xml", (res) => {
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.origin}/sitemap.xml</loc></sitemap></sitemapindex>`,
      );
    });
    site.routes.set("/sitemap.xml", (res) => {
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/lanterns</loc></url><url><loc>${site.origin}/wicks?a=1&amp;b=2</loc></url></urlset>`,
      );
    });
    site.routes.set("/wicks?a=1&b=2", html(WICKS));
    const summary = await ingestWeb({ ...base(), urls: [`${site.origin}/sitemap-index.xml`], sitemap: true });
    expect(summary).toMatchObject({ added: 2, failed: [] });
    expect(await store.getDocument(`${site.origin}/wicks?a=1&b=2`, LOCAL_OWNER, { source: "lamps" })).toBeDefined();
  });

  it("skips a response over the size cap", async () => {
    const summary = await ingestWeb({ ...base(), urls: [`${site.origin}/lanterns`], maxPageBytes: 100 });
    expect(summary.added).toBe(0);
    expect(summary.skipped[0]?.reason).toContain("maxPageBytes");
  });

  it("refuses loopback by default, by address and by a name resolving to it", async () => {
    const literal = await ingestWeb({ store, perHostIntervalMs: 0, urls: [`${site.origin}/lanterns`] });
    expect(literal.failed[0]?.reason).toContain("not a public address");
    const named = await ingestWeb({ store, perHostIntervalMs: 0, urls: [`http://localhost:${site.port}/lanterns`] });
    expect(named.failed[0]?.reason).toMatch(/resolves to (127\.0\.0\.1|::1), not a public address/);
    expect(site.requests).toEqual([]);
  });

  it("refuses non-http schemes", async () => {
    await expect(ingestWeb({ store, urls: ["file:///etc/hostname"] })).rejects.toThrow("only http and https");
  });
});
