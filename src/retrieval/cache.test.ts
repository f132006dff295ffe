import { describe, expect, it } from "vitest";
import type { Principal } from "../spec/principal.js";
import type { ToolResult } from "../spec/tool-result.js";
import { createSubQueryCache, normaliseQuery, subQueryKey } from "./cache.js";

const alice: Principal = { tenant: "acme", user: "alice", roles: ["staff", "hr"] };
const bob: Principal = { tenant: "acme", user: "bob", roles: ["staff"] };
const readable = ["handbook", "hr"];

const result = (id: string, source = "hr"): ToolResult => ({
  status: "ok",
  passages: [{ id, docId: id.split("::")[0] ?? id, source, text: `text of ${id}`, score: 0.8 }],
});

const key = (query: string, principal: Principal = alice, extra: Record<string, unknown> = {}) => ({
  tool: "search",
  args: { query, k: 5, ...extra },
  principal,
  readable,
  dataVersion: 1,
});

describe("sub-query cache", () => {
  it("hits on the same normalised query and misses on a different one", () => {
    const cache = createSubQueryCache();
    cache.set(key("Refund policy"), result("refunds.md::0"), ["handbook"]);
    expect(cache.get(key("  refund   POLICY "))?.passages?.[0]?.id).toBe("refunds.md::0");
    expect(cache.get(key("refund window"))).toBeUndefined();
    expect(normaliseQuery(" Ｒefund\tPolicy ")).toBe("refund policy");
  });

  it("keys on every argument: k, since and corpus change the entry, argument order does not", () => {
    const cache = createSubQueryCache();
    cache.set(key("salary", alice, { corpus: "hr", since: "2024-01-01" }), result("pay.md::0"), ["hr"]);
    expect(cache.get(key("salary", alice, { corpus: "hr" }))).toBeUndefined();
    expect(cache.get(key("salary", alice, { corpus: "hr", since: "2024-01-01", k: 6 }))).toBeUndefined();
    const reordered = { tool: "search", args: { since: "2024-01-01", corpus: "hr", k: 5, query: "salary" } };
    expect(cache.get({ ...reordered, principal: alice, readable, dataVersion: 1 })?.passages).toHaveLength(1);
  });

  it("never serves one access scope's entry to another (fewer roles, other tenant, other readable sources)", () => {
    const cache = createSubQueryCache();
    cache.set(key("dana smith salary"), result("salaries.md::0"), ["hr"]);
    expect(cache.get(key("dana smith salary", bob))).toBeUndefined();
    expect(cache.get(key("dana smith salary", { ...alice, tenant: "other" }))).toBeUndefined();
    expect(cache.get({ ...key("dana smith salary"), readable: ["handbook"] })).toBeUndefined();
    // Same tenant and roles (another user, roles in another order) is the same scope.
    const carol: Principal = { tenant: "acme", user: "carol", roles: ["hr", "staff"] };
    expect(cache.get(key("dana smith salary", carol))?.passages?.[0]?.id).toBe("salaries.md::0");
    expect(subQueryKey(key("x", carol))).toBe(subQueryKey(key("x", alice)));
  });

  it("never serves an entry once the store's data version has moved", () => {
    const cache = createSubQueryCache();
    cache.set(key("refund"), result("a::0"), ["handbook"]);
    expect(cache.get({ ...key("refund"), dataVersion: 2 })).toBeUndefined();
    expect(cache.get(key("refund"))?.passages).toHaveLength(1);
  });

  it("expires entries after the TTL", () => {
    let t = 1_000;
    const cache = createSubQueryCache({ ttlMs: 100, now: () => t });
    cache.set(key("refund"), result("a::0"), ["handbook"]);
    t += 99;
    expect(cache.get(key("refund"))).toBeDefined();
    t += 1;
    expect(cache.get(key("refund"))).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps at most maxEntries, dropping the least recently used", () => {
    const cache = createSubQueryCache({ maxEntries: 2 });
    cache.set(key("one"), result("1::0"), ["handbook"]);
    cache.set(key("two"), result("2::0"), ["handbook"]);
    expect(cache.get(key("one"))).toBeDefined(); // "two" is now the least recent
    cache.set(key("three"), result("3::0"), ["handbook"]);
    expect(cache.size).toBe(2);
    expect(cache.get(key("two"))).toBeUndefined();
    expect(cache.get(key("one"))).toBeDefined();
    expect(cache.get(key("three"))).toBeDefined();
  });

  it("drops a tenant's entries for a source when that source is ingested", () => {
    const cache = createSubQueryCache();
    cache.set(key("refund"), result("a::0", "handbook"), ["handbook"]);
    cache.set(key("salary"), result("b::0", "hr"), ["hr"]);
    cache.set(key("everything"), result("c::0", "hr"), ["handbook", "hr"]);
    cache.set(key("refund", { ...alice, tenant: "other" }), result("a::0", "handbook"), ["handbook"]);
    expect(cache.invalidateSource("acme", "handbook")).toBe(2);
    expect(cache.get(key("refund"))).toBeUndefined();
    expect(cache.get(key("everything"))).toBeUndefined();
    expect(cache.get(key("salary"))).toBeDefined();
    expect(cache.get(key("refund", { ...alice, tenant: "other" }))).toBeDefined();
  });

  it("returns copies: changing a returned result does not change the entry", () => {
    const cache = createSubQueryCache();
    cache.set(key("refund"), result("a::0"), ["hr"]);
    const first = cache.get(key("refund"));
    first?.passages?.splice(0);
    expect(cache.get(key("refund"))?.passages).toHaveLength(1);
  });
});
