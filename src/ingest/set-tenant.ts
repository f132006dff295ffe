import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The tenant an evaluation-set folder is ingested for (FORMAT.md, "Tenant"): the one tenant its questions'
 * principals name. Undefined for any other path, or when no question (or more than one tenant) is named;
 * unreadable lines are passed over here (the evaluation loader reports them).
 */
export function evalSetTenant(path: string): string | undefined {
  const questions = join(path, "questions.jsonl");
  if (!existsSync(join(path, "sources.json")) || !existsSync(questions) || !statSync(questions).isFile())
    return undefined;
  const tenants = new Set<string>();
  for (const line of readFileSync(questions, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const tenant = (JSON.parse(line) as { principal?: { tenant?: unknown } }).principal?.tenant;
      if (typeof tenant === "string" && tenant) tenants.add(tenant);
    } catch {
      // a malformed line names no tenant
    }
  }
  return tenants.size === 1 ? [...tenants][0] : undefined;
}
