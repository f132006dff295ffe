import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalise } from "../src/agent/citations.js";
import { createFerret, type Ferret } from "../src/index.js";
import { INJECTED, INJECTION_CASES, writeInjectionDocs } from "./fixtures/hostile/injections.js";

/**
 * Documents with hidden, full-width and Markdown-wrapped injections, fake citation markers and a hostile
 * title, answered by the offline engine: the fact is answered, nothing injected reaches what the user sees,
 * the only `[n]` markers are the engine's own, and every citation quote occurs in its passage.
 */
describe("injections inside documents (offline engine)", () => {
  let dir: string;
  let ferret: Ferret;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-inject-"));
    ferret = await createFerret({ db: join(dir, "ferret.db") });
    const summary = await ferret.ingest(await writeInjectionDocs(dir));
    expect(summary.added).toBe(new Set(INJECTION_CASES.map((c) => c.file)).size);
  });
  afterAll(async () => {
    await ferret.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(INJECTION_CASES)("$file: $question", async ({ question, fact }) => {
    const answer = await ferret.ask(question);
    if (fact !== undefined) {
      expect(answer.status).toBe("answered");
      expect(answer.text).toContain(fact);
    }
    const shown = [answer.text, answer.reason ?? "", ...answer.citations.map((c) => c.quote)].join("\n").toLowerCase();
    for (const bad of INJECTED) expect(shown).not.toContain(bad.toLowerCase());
    // Markers: only the engine's own, each naming a citation of this answer.
    const cited = new Set(answer.citations.map((c) => c.n));
    const markers = [...answer.text.matchAll(/\[\^?(\d+)\]|【\s*(\d+)\s*】/g)];
    if (answer.status !== "refused") expect(markers.length).toBeGreaterThan(0);
    for (const marker of markers) expect(marker[0]).toBe(`[${marker[1]}]`);
    for (const marker of markers) expect(cited.has(Number(marker[1]))).toBe(true);
    // Citations verify against the stored passage text.
    for (const c of answer.citations) {
      const passage = answer.evidence.find((e) => e.id === c.passageId);
      expect(passage && normalise(passage.text).includes(normalise(c.quote))).toBe(true);
    }
  });
});
