import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseHeading, sections } from "./sections.js";

describe("sections", () => {
  it("builds heading paths and joins heading-only sections to the next", () => {
    const text = "intro line\n# A\n## A1\nbody a1\n## A2\nbody a2\n# B\nbody b\n";
    const secs = sections(text);
    expect(secs.map((s) => s.path)).toEqual([[], ["A", "A1"], ["A", "A2"], ["B"]]);
    expect(text.slice(secs[1]?.start, secs[1]?.end)).toBe("# A\n## A1\nbody a1\n");
    expect(secs.map((s) => text.slice(s.start, s.end)).join("")).toBe(text);
  });

  it("strips closing hashes and skips fenced code", () => {
    const secs = sections("# Title ##\ntext\n```\n# code\n```\n~~~\n## also code\n~~~\n");
    expect(secs).toHaveLength(1);
    expect(secs[0]?.path).toEqual(["Title"]);
  });
});

/** The heading pattern before it was rewritten as a loop: the reference on short lines, where it is fast. */
const HEADING_REGEX = /^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;

describe("parseHeading", () => {
  it("reads every short line as the heading pattern did", () => {
    const pieces = fc.constantFrom(" ", "\t", "#", "a", "b", "é", "\r", "\u2028", "\u00a0", "  ", "##");
    fc.assert(
      fc.property(fc.string({ unit: pieces, maxLength: 12 }), (line) => {
        const m = HEADING_REGEX.exec(line);
        const expected = m ? { level: (m[1] as string).length, title: (m[2] as string).trim() } : undefined;
        expect(parseHeading(line)).toEqual(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  it("reads a 1 MB heading line of spaces or hashes in one pass", () => {
    const same = (line: string, level: number, title: string) => {
      const got = parseHeading(line);
      expect(got?.level).toBe(level);
      expect(got?.title === title, `title of ${got?.title.length} characters`).toBe(true);
    };
    same(`# a${" ".repeat(1_000_000)}x`, 1, `a${" ".repeat(1_000_000)}x`);
    same(`## ${"# ".repeat(500_000)}`, 2, `${"# ".repeat(499_998)}#`);
    same(`# Title #${" ".repeat(1_000_000)}`, 1, "Title");
    same(`### ${"#".repeat(1_000_000)}`, 3, "#".repeat(1_000_000));
    expect(parseHeading("#".repeat(1_000_000))).toBeUndefined();
  });

  it("splits a text of thousands of headings into sections with their paths", () => {
    const text = "# a\n## b\ntext\n".repeat(20_000);
    const secs = sections(text);
    expect(secs).toHaveLength(20_000);
    expect(secs.every((s) => s.path.join("/") === "a/b")).toBe(true);
    expect(secs.map((s) => text.slice(s.start, s.end)).join("")).toBe(text);
  });
});
