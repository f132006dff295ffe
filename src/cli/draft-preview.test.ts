import { describe, expect, it } from "vitest";
import { createDraftPreview } from "./draft-preview.js";

const output = (tty: boolean, columns?: number) => {
  const written: string[] = [];
  return { written, out: { write: (text: string) => written.push(text), isTTY: tty, columns } };
};

describe("draft preview", () => {
  it("writes each delta as it comes; off a terminal the draft stays, closed with a blank line", () => {
    const { written, out } = output(false);
    const preview = createDraftPreview(out);
    preview.write("The kiln ");
    expect(written).toEqual(["The kiln "]);
    preview.write("fires on Thursdays.");
    preview.end();
    expect(written.join("")).toBe("The kiln fires on Thursdays.\n\n");
  });

  it("on a terminal erases the rows the draft filled, so the checked answer takes its place", () => {
    const { written, out } = output(true, 10);
    const preview = createDraftPreview(out);
    preview.write("0123456789abcde"); // two rows of a 10-column terminal
    preview.end();
    expect(written.at(-1)).toBe("\x1b[1F\x1b[J");
    const short = output(true, 80);
    const one = createDraftPreview(short.out);
    one.write("short");
    one.end();
    expect(short.written.at(-1)).toBe("\r\x1b[J");
  });

  it("writes nothing when no draft came (offline engine, refusals before the answerer)", () => {
    const { written, out } = output(true);
    createDraftPreview(out).end();
    expect(written).toEqual([]);
  });
});
