import { describe, expect, it } from "vitest";
import { sections } from "./sections.js";

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
