import type { LookupAddress } from "node:dns";
import { Agent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { guardedLookup, isPublicAddress } from "./address-guard.js";
import { fetchPage } from "./fetch-page.js";
import { html, startTestSite, type TestSite } from "./web-test-server.js";

let site: TestSite;
let agent: Agent;

/**
 * A dispatcher that resolves the made-up name `start.test` to the test server (standing in for a public host)
 * and every other name through the real guard: what a redirect from a public page to loopback meets.
 */
function publicStartAgent(): Agent {
  const guard = guardedLookup(false);
  return new Agent({
    connect: {
      lookup: (hostname, options, callback) => {
        if (hostname !== "start.test") return guard(hostname, options, callback);
        const address: LookupAddress = { address: "127.0.0.1", family: 4 };
        if (options.all) callback(null, [address]);
        else callback(null, address.address, address.family);
      },
    },
  });
}

beforeEach(async () => {
  site = await startTestSite({ "/secret": html("<p>internal</p>") });
  agent = publicStartAgent();
});

afterEach(async () => {
  await agent.close();
  await site.close();
});

const fetchOptions = (url: string) => ({
  url,
  dispatcher: agent,
  allowPrivate: false,
  maxBytes: 10_000,
  timeoutMs: 5000,
});

describe("fetchPage", () => {
  it("refuses a redirect to a loopback address literal", async () => {
    site.routes.set("/go", (res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${site.port}/secret` });
      res.end();
    });
    await expect(fetchPage(fetchOptions(`http://start.test:${site.port}/go`))).rejects.toThrow(
      "127.0.0.1 is not a public address",
    );
    expect(site.requests.map((r) => r.path)).toEqual(["/go"]);
  });

  it("refuses a redirect to a name that resolves to loopback, after resolving it", async () => {
    site.routes.set("/go", (res) => {
      res.writeHead(301, { location: `http://localhost:${site.port}/secret` });
      res.end();
    });
    await expect(fetchPage(fetchOptions(`http://start.test:${site.port}/go`))).rejects.toThrow(
      /localhost resolves to .*not a public address/,
    );
    expect(site.requests.map((r) => r.path)).toEqual(["/go"]);
  });

  it("follows a redirect it may follow, and refuses one to another scheme", async () => {
    site.routes.set("/go", (res) => {
      res.writeHead(302, { location: "/secret" });
      res.end();
    });
    const page = await fetchPage(fetchOptions(`http://start.test:${site.port}/go`));
    expect(page.url).toBe(`http://start.test:${site.port}/secret`);
    expect(new TextDecoder().decode(page.body)).toContain("internal");
    site.routes.set("/go", (res) => {
      res.writeHead(302, { location: "file:///etc/passwd" });
      res.end();
    });
    await expect(fetchPage(fetchOptions(`http://start.test:${site.port}/go`))).rejects.toThrow("only http and https");
  });

  it("gives up after the redirect limit", async () => {
    site.routes.set("/loop", (res) => {
      res.writeHead(302, { location: "/loop" });
      res.end();
    });
    await expect(
      fetchPage({ ...fetchOptions(`http://start.test:${site.port}/loop`), maxRedirects: 3 }),
    ).rejects.toThrow("more than 3 redirects");
  });

  it("stops at the timeout", async () => {
    site.routes.set("/slow", () => undefined);
    await expect(fetchPage({ ...fetchOptions(`http://start.test:${site.port}/slow`), timeoutMs: 200 })).rejects.toThrow(
      "no answer within 200 ms",
    );
  });
});

describe("isPublicAddress", () => {
  it("accepts public unicast only", () => {
    for (const a of ["93.184.216.34", "2606:4700::1"]) expect(isPublicAddress(a)).toBe(true);
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "192.168.0.9",
      "169.254.169.254",
      "::1",
      "fe80::1",
      "fc00::5",
      "0.0.0.0",
      "::ffff:127.0.0.1",
      "100.64.0.1",
      "not-an-ip",
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });
});
