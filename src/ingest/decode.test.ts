import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { LEGACY_TEXTS } from "../../test/fixtures/hostile/encodings.js";
import { fixture } from "../../test/fixtures/ingest/fixtures.js";
import { binaryReason, decodeText } from "./decode.js";

describe("binaryReason", () => {
  it("flags NUL bytes and control-character noise, passes text in any script", () => {
    expect(binaryReason(fixture("binary.txt"))).toMatch(/NUL/);
    expect(binaryReason(new Uint8Array(100).fill(1))).toMatch(/control characters/);
    expect(binaryReason(fixture("zh-test-procedure.md"))).toBeUndefined();
    expect(binaryReason(new TextEncoder().encode("tab\there\r\nform\ffeed"))).toBeUndefined();
  });

  it("does not call UTF-16, Shift_JIS or GBK text binary", () => {
    const text = "Schichtplan: die Nachtschicht beginnt um 22 Uhr.\n";
    expect(binaryReason(iconv.encode(text, "utf-16le", { addBOM: true }))).toBeUndefined();
    expect(binaryReason(iconv.encode(text, "utf-16be", { addBOM: true }))).toBeUndefined();
    expect(binaryReason(iconv.encode(text, "utf-16le"))).toBeUndefined();
    expect(binaryReason(iconv.encode(LEGACY_TEXTS.shiftJis.text, "shift_jis"))).toBeUndefined();
    expect(binaryReason(iconv.encode(LEGACY_TEXTS.gbk.text, "gbk"))).toBeUndefined();
    // UTF-16 with a BOM is judged by its characters: control characters in it are still binary.
    expect(
      binaryReason(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(Array(100).fill([0x01, 0x00]).flat())])),
    ).toMatch(/control/);
  });
});

describe("decodeText", () => {
  it("drops a BOM and normalises line ends", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("a\r\nb\rc")]);
    expect(decodeText({ bytes })).toEqual({ text: "a\nb\nc", warnings: [], encoding: "utf-8" });
  });

  it("keeps UTF-8 with a few damaged bytes as UTF-8, replacing the bad sequences and saying how many", () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("café "), 0xff, 0x62]);
    const { text, warnings } = decodeText({ bytes });
    expect(text).toBe("café \uFFFDb");
    expect(warnings).toEqual(["invalid UTF-8: 1 undecodable sequence(s) replaced with U+FFFD"]);
  });

  it.each([
    ["Latin-1 German", LEGACY_TEXTS.latin1, "windows-1252"],
    ["Windows-1252 quotes and euro", LEGACY_TEXTS.cp1252, "windows-1252"],
    ["Shift_JIS Japanese", LEGACY_TEXTS.shiftJis, "shift_jis"],
    ["GBK Chinese", LEGACY_TEXTS.gbk, "gb18030"],
  ])("detects and decodes %s, with a warning naming the encoding", (_name, sample, encoding) => {
    const { text, warnings, encoding: used } = decodeText({ bytes: iconv.encode(sample.text, sample.encoding) });
    expect(text).toBe(sample.text);
    expect(used).toBe(encoding);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^not valid UTF-8; decoded as ${encoding} \\(detected, confidence \\d+%\\)$`),
    );
  });

  it("decodes UTF-16 by its byte-order mark, and ASCII-range UTF-16 without one", () => {
    const text = "Größe\r\nzweite Zeile";
    expect(decodeText({ bytes: iconv.encode(text, "utf-16le", { addBOM: true }) })).toEqual({
      text: "Größe\nzweite Zeile",
      warnings: [],
      encoding: "utf-16le",
    });
    expect(decodeText({ bytes: iconv.encode(text, "utf-16be", { addBOM: true }) }).text).toBe("Größe\nzweite Zeile");
    const bare = decodeText({ bytes: iconv.encode("Night shift starts at 22:00.", "utf-16le") });
    expect(bare.text).toBe("Night shift starts at 22:00.");
    expect(bare.warnings).toEqual(["no byte-order mark; decoded as utf-16le (detected)"]);
  });

  it("lets a declared charset win over detection, and ignores an unknown one", () => {
    const bytes = iconv.encode("Übergröße: 30 €", "windows-1252");
    expect(decodeText({ bytes, declaredCharset: "windows-1252" })).toEqual({
      text: "Übergröße: 30 €",
      warnings: [],
      encoding: "windows-1252",
    });
    // Declared Latin-1 is read as Windows-1252, as browsers do: 0x80 is the euro sign.
    expect(decodeText({ bytes, declaredCharset: "ISO-8859-1" }).text).toBe("Übergröße: 30 €");
    const sjis = iconv.encode(LEGACY_TEXTS.shiftJis.text, "shift_jis");
    expect(decodeText({ bytes: sjis, declaredCharset: "Shift_JIS" }).text).toBe(LEGACY_TEXTS.shiftJis.text);
    const unknown = decodeText({ bytes, declaredCharset: "x-klingon" });
    expect(unknown.warnings[0]).toBe('declared charset "x-klingon" is not known; ignored');
    expect(unknown.text).toBe("Übergröße: 30 €");
  });
});
