import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evalSetTenant } from "./set-tenant.js";

function set(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "ferret-set-"));
  writeFileSync(join(dir, "sources.json"), "[]");
  writeFileSync(join(dir, "questions.jsonl"), lines.join("\n"));
  return dir;
}

describe("evalSetTenant", () => {
  it("is the one tenant the questions' principals name", () => {
    const dir = set([
      JSON.stringify({ id: "a", principal: { tenant: "acme", user: "u", roles: [] } }),
      JSON.stringify({ id: "b" }),
      "not json",
    ]);
    expect(evalSetTenant(dir)).toBe("acme");
  });

  it("is undefined without principals, with two tenants, or for a folder that is no evaluation set", () => {
    expect(evalSetTenant(set([JSON.stringify({ id: "a" })]))).toBeUndefined();
    const two = set([
      JSON.stringify({ principal: { tenant: "a", user: "u", roles: [] } }),
      JSON.stringify({ principal: { tenant: "b", user: "u", roles: [] } }),
    ]);
    expect(evalSetTenant(two)).toBeUndefined();
    expect(evalSetTenant(mkdtempSync(join(tmpdir(), "ferret-plain-")))).toBeUndefined();
  });
});
