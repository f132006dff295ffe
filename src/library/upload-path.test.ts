import { describe, expect, it } from "vitest";
import { uploadPath } from "./upload-path.js";

describe("uploadPath", () => {
  it("keeps plain names and folders, in any script", () => {
    expect(uploadPath("notes.md")).toEqual({ path: "notes.md" });
    expect(uploadPath("guides\\setup.md")).toEqual({ path: "guides/setup.md" });
    expect(uploadPath("手册/地面站.md")).toEqual({ path: "手册/地面站.md" });
    expect(uploadPath("Prüfstand Übersicht.md")).toEqual({ path: "Prüfstand Übersicht.md" });
  });

  it("refuses names that could leave the upload folder or hide", () => {
    for (const name of [
      "../etc/passwd",
      "a/../../b.md",
      "/etc/passwd",
      "C:\\Windows\\win.ini",
      "a//b.md",
      "./a.md",
      ".env",
      "a/.git/config",
      "bad\u0000name.md",
      "line\nbreak.md",
      "",
      "   ",
      `${"x".repeat(256)}.md`,
      "a/b/c/d/e/f/g/h/i.md",
      "sources.json",
    ]) {
      expect(uploadPath(name), name).toHaveProperty("reason");
    }
    // Only the top-level sources.json is reserved.
    expect(uploadPath("sets/sources.json")).toEqual({ path: "sets/sources.json" });
  });
});
