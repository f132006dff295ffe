import { describe, expect, it } from "vitest";
import { codeUnits, loadCode } from "./code.js";

const ts = [
  'import { brew } from "./kettle.js";', // 1
  "", // 2
  "/** Steeps leaves; the brace in this string is not a block: '{'. */", // 3
  "export function steep(minutes: number): string {", // 4
  '  const note = "}{";', // 5
  "  return 'steeped ' + minutes;", // 6
  "}", // 7
  "", // 8
  "export class Teapot {", // 9
  "  pour(): void {", // 10
  "    function inner() {}", // 11
  "  }", // 12
  "}", // 13
  "", // 14
  "function steep() {}", // 15
].join("\n");

const py = [
  "import os", // 1
  "", // 2
  "@cached", // 3
  "def harvest(row):", // 4
  "    def helper():", // 5
  "        return 1", // 6
  "", // 7
  "    return row", // 8
  "", // 9
  "class Orchard:", // 10
  "    def prune(self):", // 11
  "        pass", // 12
].join("\n");

describe("code splitter", () => {
  it("splits a brace language at top-level declarations only, with comments above them", () => {
    expect(codeUnits(ts, "brace")).toEqual([
      { symbol: "(module)", startLine: 1, endLine: 2 },
      { symbol: "steep", startLine: 3, endLine: 7 },
      { symbol: "Teapot", startLine: 9, endLine: 13 },
      { symbol: "steep", startLine: 15, endLine: 15 },
    ]);
  });

  it("splits Python by indentation, with decorators above a definition", () => {
    expect(codeUnits(py, "indent")).toEqual([
      { symbol: "(module)", startLine: 1, endLine: 2 },
      { symbol: "harvest", startLine: 3, endLine: 8 },
      { symbol: "Orchard", startLine: 10, endLine: 12 },
    ]);
  });

  it("loads a document per unit, cited by path, symbol and line range", async () => {
    const result = await loadCode({ bytes: new TextEncoder().encode(ts), relPath: "src/teapot.ts" });
    expect(result.docs.map((d) => [d.id, d.title, d.metadata.locator])).toEqual([
      ["src/teapot.ts#(module)", "src/teapot.ts (module) (lines 1-2)", "lines 1-2"],
      ["src/teapot.ts#steep", "src/teapot.ts steep (lines 3-7)", "lines 3-7"],
      ["src/teapot.ts#Teapot", "src/teapot.ts Teapot (lines 9-13)", "lines 9-13"],
      ["src/teapot.ts#steep~2", "src/teapot.ts steep (lines 15-15)", "lines 15-15"],
    ]);
    expect(result.docs[2]?.text).toBe(ts.split("\n").slice(8, 13).join("\n"));
  });

  it("stays linear on a long run of unclosed braces", () => {
    const text = `${"{".repeat(200_000)}\nfunction late() {}\n`;
    expect(codeUnits(text, "brace")).toEqual([{ symbol: "(module)", startLine: 1, endLine: 3 }]);
  });
});
