import { describe, expect, it } from "vitest";
import { stableJson } from "./stable-json.js";

describe("stableJson", () => {
  it("sorts keys at every depth and drops undefined members", () => {
    expect(stableJson({ b: 1, a: { d: [1, "x"], c: undefined } })).toBe('{"a":{"d":[1,"x"]},"b":1}');
    expect(stableJson({ a: 1, b: 2 })).toBe(stableJson({ b: 2, a: 1 }));
  });

  it("rewrites strings, keys excepted, when asked", () => {
    expect(stableJson({ Q: " Refund  Policy " }, (s) => s.trim().toLowerCase())).toBe('{"Q":"refund  policy"}');
  });
});
