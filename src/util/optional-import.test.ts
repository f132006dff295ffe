import { describe, expect, it } from "vitest";
import { isMissing } from "./optional-import.js";

describe("isMissing", () => {
  it("recognises a package that is not installed, by its own name only", async () => {
    const error = await import("ferret-no-such-package-xyz" as string).catch((e: unknown) => e);
    expect(isMissing(error, "ferret-no-such-package-xyz")).toBe(true);
    expect(isMissing(error, "ferret-no-such")).toBe(false);
    expect(isMissing(new Error("Cannot find package 'ferret-no-such-package-xyz'"), "ferret-no-such-package-xyz")).toBe(
      false,
    );
  });
});
