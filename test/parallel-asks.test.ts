import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret, type Ferret } from "../src/index.js";

const ACME = new URL("../examples/acme", import.meta.url).pathname;

/** Collects process warnings while `work` runs (warnings are emitted on a later tick, so wait one). */
async function warningsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (warning: Error) => seen.push(`${warning.name}: ${warning.message}`);
  process.on("warning", listener);
  try {
    await work();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", listener);
  }
  return seen;
}

describe("many parallel calls on one instance", () => {
  let dir: string;
  let ferret: Ferret;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ferret-parallel-"));
    ferret = await createFerret({ db: join(dir, "ferret.db") });
    await ferret.ingest(ACME);
  });
  afterAll(async () => {
    await ferret.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("50 parallel asks sharing one caller signal emit no MaxListenersExceededWarning", async () => {
    const controller = new AbortController();
    const answers: string[] = [];
    const warnings = await warningsDuring(async () => {
      const runs = Array.from({ length: 50 }, () =>
        ferret.ask("Who leads the team that owns the Telemetry Gateway?", { signal: controller.signal }),
      );
      for (const answer of await Promise.all(runs)) answers.push(answer.text);
    });
    expect(warnings).toEqual([]);
    expect(answers).toHaveLength(50);
    for (const text of answers) expect(text).toContain("Dana Okafor");
  });

  it("50 parallel streams and searches emit no warning either", async () => {
    const controller = new AbortController();
    const warnings = await warningsDuring(() =>
      Promise.all([
        ...Array.from({ length: 50 }, async () => {
          for await (const _event of ferret.stream("How many urgent support tickets are open?", {
            signal: controller.signal,
          })) {
            // drain
          }
        }),
        ...Array.from({ length: 50 }, (_, i) => ferret.search(`telemetry gateway ${i}`)),
      ]),
    );
    expect(warnings).toEqual([]);
  });
});
