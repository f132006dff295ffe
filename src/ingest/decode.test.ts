import { describe, expect, it } from "vitest";
import { fixture } from "../../test/fixtures/ingest/fixtures.js";
import { binaryReason, decodeUtf8 } from "./decode.js";

describe("binaryReason", () => {
  it("flags NUL bytes and control-character noise, passes text in any script", () => {
    expect(binaryReason(fixture("binary.txt"))).toMatch(/NUL/);
    expect(binaryReason(new Uint8Array(100).fill(1))).toMatch(/control characters/);
    expect(binaryReason(fixture("zh-test-procedure.md"))).toBeUndefined();
    expect(binaryReason(new TextEncoder().encode("tab\there\r\nform\ffeed"))).toBeUndefined();
  });
});

describe("decodeUtf8", () => {
  it("drops a BOM and normalises line ends", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("a\r\nb\rc")]);
    expect(decodeUtf8(bytes)).toEqual({ text: "a\nb\nc", warnings: [] });
  });

  it("replaces invalid sequences and says how many", () => {
    const { text, warnings } = decodeUtf8(new Uint8Array([0x61, 0xff, 0x62]));
    expect(text).toBe("a\uFFFDb");
    expect(warnings).toEqual(["invalid UTF-8: 1 undecodable sequence(s) replaced with U+FFFD"]);
  });
});
