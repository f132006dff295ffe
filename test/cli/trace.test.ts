import { describe, expect, it } from "vitest";
import type { Answer } from "../../src/spec/answer.js";
import type { RunRecord } from "../../src/spec/store.js";
import type { TraceEvent } from "../../src/spec/trace.js";
import { acmeDb, ferret, ferretJson } from "./run-cli.js";

const AS = "acme:sam:support";

/** `trace --json`: the stored run, its events the spec's trace events. */
type TraceJson = Omit<RunRecord, "events"> & { events: TraceEvent[] };

describe("ferret trace", () => {
  it("returns the events of an ask's run, ending with the answer's stop reason", async () => {
    const db = await acmeDb();
    const answer = await ferretJson<Answer>([
      "ask",
      "How much payload mass can the Roadrunner R3 carry?",
      "--db",
      db,
      "--as",
      AS,
    ]);
    const record = await ferretJson<TraceJson>(["trace", answer.runId, "--db", db, "--as", AS]);
    expect(record.runId).toBe(answer.runId);
    const kinds = record.events.map((e) => e.type);
    expect(kinds[0]).toBe("run-start");
    expect(kinds.at(-1)).toBe("run-end");
    expect(kinds).toContain("tool-call-start");
    expect(kinds).toContain("tool-call-end");
    for (const e of record.events) expect(e.runId).toBe(answer.runId);
    const end = record.events.at(-1);
    expect(end?.type === "run-end" && end.stopReason).toBe(answer.stopReason);
    expect(end?.type === "run-end" && end.usage.toolCalls).toBe(answer.usage.toolCalls);
  });

  it("exits non-zero for an unknown run id, and for another tenant's run", async () => {
    const db = await acmeDb();
    const unknown = await ferret(["trace", "no-such-run", "--db", db, "--json"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.code).not.toBeNull();
    expect(unknown.stderr).toContain("no-such-run");
    expect(unknown.stdout).toBe("");

    const answer = await ferretJson<Answer>(["ask", "hello!", "--db", db, "--as", AS]);
    const foreign = await ferret(["trace", answer.runId, "--db", db, "--as", "globex:eve:support", "--json"]);
    expect(foreign.code).not.toBe(0);
    expect(foreign.stdout).toBe("");
  });

  it("no longer shows passage text the reader lost the right to read after the run", async () => {
    const db = await acmeDb();
    const question = "What stipend do engineers on the primary on-call rotation receive per week?";
    const answer = await ferretJson<Answer>(["ask", question, "--db", db, "--as", "acme:hana:hr"]);
    expect(answer.text).toContain("$350");
    const whole = await ferret(["trace", answer.runId, "--db", db, "--as", "acme:hana:hr"]);
    expect(whole.stdout).toContain("$350");
    // The hr role taken from hana: the trace keeps its steps but not what hr_policies said.
    const later = await ferret(["trace", answer.runId, "--db", db, "--as", "acme:hana:support"]);
    expect(later.code).toBe(0);
    expect(later.stdout).not.toContain("$350");
    expect(later.stdout).toContain("redacted: ");
    expect(later.stdout).toContain("stop reason: ");
  });
});
