import { describe, expect, it } from "vitest";
import { aliasBombYaml } from "../../test/fixtures/hostile/front-matter.js";
import { InvalidInputError, LimitExceededError } from "../spec/errors.js";
import { splitFrontMatter } from "./front-matter.js";
import { DEFAULT_INGEST_LIMITS } from "./limits.js";

const split = (text: string, limits = DEFAULT_INGEST_LIMITS) =>
  splitFrontMatter({ text, relPath: "notes/a.md", limits });
const failure = (text: string, limits = DEFAULT_INGEST_LIMITS) => {
  try {
    split(text, limits);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected splitFrontMatter to throw");
};

describe("splitFrontMatter", () => {
  it("reads YAML, TOML and JSON front matter as plain data", () => {
    expect(split("---\ntitle: A\ntags: [x, y]\nwhen: 2026-03-04\n---\n\nBody")).toEqual({
      data: { title: "A", tags: ["x", "y"], when: "2026-03-04" },
      body: "\nBody",
      format: "yaml",
      warnings: [],
    });
    const toml = split('+++\ntitle = "T"\nupdated_at = 2026-04-01\nbig = 9007199254740993\n+++\nBody');
    expect(toml).toMatchObject({ format: "toml", body: "Body" });
    expect(toml.data).toEqual({ title: "T", updated_at: "2026-04-01", big: "9007199254740993" });
    expect(split('---json\n{"title": "J", "n": 2}\n---\nBody')).toMatchObject({
      data: { title: "J", n: 2 },
      format: "json",
    });
  });

  it("refuses any other engine, naming the file and the engine, without running it", () => {
    const flag = "__ferretSplitPwned";
    for (const engine of ["js", "javascript", "coffee", "JS", "lua"]) {
      const error = failure(`---${engine}\n{ title: (globalThis.${flag} = true, "x") }\n---\nBody`);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.message).toBe(
        `notes/a.md: front matter engine "${engine.toLowerCase()}" is not supported: only YAML, TOML and JSON front matter is read, as data`,
      );
      expect((error as InvalidInputError).context).toMatchObject({ file: "notes/a.md", engine: engine.toLowerCase() });
    }
    expect((globalThis as Record<string, unknown>)[flag]).toBeUndefined();
  });

  it("keeps YAML tags as data: a !!js/function tag is not code", () => {
    const { data, warnings } = split('---\ntitle: !!js/function "function () { return 1 }"\n---\nBody');
    expect(data.title).toBe("function () { return 1 }");
    expect(warnings.join(" ")).toMatch(/tag/i);
  });

  it("stops a billion-laughs alias bomb at the alias cap", () => {
    const error = failure(`---\n${aliasBombYaml()}---\nBody`);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect(error.message).toContain("notes/a.md");
    expect(error.message).toContain("maxFrontMatterAliases");
    // A few aliases are fine.
    expect(split("---\nbase: &b {x: 1}\ncopy: *b\n---\nBody").data).toEqual({ base: { x: 1 }, copy: { x: 1 } });
  });

  it("caps the copied values even within the alias budget", () => {
    const limits = { ...DEFAULT_INGEST_LIMITS, maxFrontMatterNodes: 50 };
    const error = failure(`---\nlist: [${Array(60).fill("1").join(", ")}]\n---\n`, limits);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect(error.message).toContain("maxFrontMatterNodes = 50");
    const deep = `---json\n${"[".repeat(40)}${"]".repeat(40)}\n---\n`;
    expect(failure(deep.replace("---json\n", '---json\n{"a": ').replace("\n---\n", "}\n---\n")).message).toContain(
      "maxFrontMatterDepth",
    );
  });

  it("caps the size of the block: exactly 64 KB passes, one byte more does not", () => {
    // The block is `filler: "` + n characters + `"` and its line end: n + 11 bytes.
    const block = (bytes: number) => `---\nfiller: "${"x".repeat(bytes - 11)}"\n---\nBody`;
    expect(split(block(64 * 1024)).body).toBe("Body");
    const error = failure(block(64 * 1024 + 1));
    expect(error).toBeInstanceOf(LimitExceededError);
    expect(error.message).toBe(
      "notes/a.md: front matter is 65537 bytes, over the 65536-byte cap (maxFrontMatterBytes)",
    );
  });

  it("leaves text alone when it is not front matter", () => {
    expect(split("----\nnot a fence\n----\nBody")).toMatchObject({ data: {}, body: "----\nnot a fence\n----\nBody" });
    expect(split("---\nno closing fence")).toMatchObject({ data: {}, body: "---\nno closing fence" });
    const scalar = split("---\njust a sentence\n---\nBody");
    expect(scalar.body).toBe("---\njust a sentence\n---\nBody");
    expect(scalar.warnings).toEqual(["front matter is not a mapping of keys; kept as text"]);
  });

  it("names the line of invalid YAML", () => {
    const error = failure("---\ntitle: ok\nacl: [hr\n---\nbody");
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).context).toMatchObject({ file: "notes/a.md", field: "front matter" });
    expect(error.message).toMatch(/^notes\/a\.md: invalid YAML front matter at line \d+/);
  });
});
