import { describe, expect, it } from "vitest";
import { canonicalJson, contentHash } from "./hash.js";

const base = {
  text: "Fuel: 40 kg",
  title: "Fuel",
  updatedAt: "2026-01-01",
  acl: ["a", "b"],
  metadata: { x: 1, y: { p: 1, q: 2 } },
  sourceAcl: [],
};

describe("contentHash", () => {
  it("is a stable sha256 hex that ignores key order, ACL order and line-end style", () => {
    const h = contentHash(base);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHash({ ...base, acl: ["b", "a"], metadata: { y: { q: 2, p: 1 }, x: 1 } })).toBe(h);
    expect(contentHash({ ...base, text: "Fuel: 40 kg".replace(" ", " ") })).toBe(h);
    expect(contentHash({ ...base, text: "a\r\nb" })).toBe(contentHash({ ...base, text: "a\nb" }));
  });

  it("changes with each field that matters", () => {
    const h = contentHash(base);
    expect(contentHash({ ...base, text: "Fuel: 41 kg" })).not.toBe(h);
    expect(contentHash({ ...base, title: "Fuel!" })).not.toBe(h);
    expect(contentHash({ ...base, updatedAt: undefined })).not.toBe(h);
    expect(contentHash({ ...base, acl: ["a"] })).not.toBe(h);
    expect(contentHash({ ...base, metadata: { x: 2 } })).not.toBe(h);
    expect(contentHash({ ...base, sourceAcl: ["hr"] })).not.toBe(h);
  });

  it("serialises nested objects with sorted keys", () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});
