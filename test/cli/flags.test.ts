import { beforeAll, describe, expect, it } from "vitest";
import { acmeDb, ferret } from "./run-cli.js";

let db: string;
beforeAll(async () => {
  db = await acmeDb("file");
});

/** No stack trace and no raw driver message reaches the user. */
function expectClean(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain("SQLite failed");
  expect(stderr).not.toContain("datatype mismatch");
}

describe("bad flag values are usage errors naming the flag (exit 2)", () => {
  const cases: [string[], string][] = [
    [
      ["search", "telemetry", "--k", "abc"],
      "option '--k <n>' argument 'abc' is invalid. It must be a whole number from 1 to 100.",
    ],
    [["search", "telemetry", "--k", "0"], "option '--k <n>' argument '0' is invalid"],
    [["search", "telemetry", "--k", "1000"], "option '--k <n>' argument '1000' is invalid"],
    [["search", "telemetry", "--k", "2.5"], "option '--k <n>' argument '2.5' is invalid"],
    [
      ["search", "telemetry", "--since", "notadate"],
      "option '--since <date>' argument 'notadate' is invalid. It must be an ISO date such as 2024-01-31.",
    ],
    [["search", "telemetry", "--since", "2024-02-30"], "option '--since <date>' argument '2024-02-30' is invalid"],
    [
      ["search", "telemetry", "--match", "fuzzy"],
      "option '--match <how>' argument 'fuzzy' is invalid. It must be one of keyword, vector, hybrid.",
    ],
    [
      ["search", "telemetry", "--mode", "keyword"],
      "option '--mode <how>' argument 'keyword' is invalid. On search it is now --match (--match keyword)",
    ],
    [["ask", "Who leads it?", "--mode", "keyword"], "option '--mode <mode>' argument 'keyword' is invalid"],
    [["search", "telemetry", "--retrieval", "deep"], "option '--retrieval <shape>' argument 'deep' is invalid"],
    [["ask", "Who leads it?", "--min-confidence", "2"], "option '--min-confidence <x>' argument '2' is invalid"],
    [["ask", "Who leads it?", "--timeout-ms", "soon"], "option '--timeout-ms <n>' argument 'soon' is invalid"],
    [["search", "telemetry", "--frobnicate"], "unknown option '--frobnicate'"],
    [
      ["search", "telemetry", "--as", "acme"],
      "option '--as <principal>' argument 'acme' is invalid. It must be TENANT:USER:ROLE,ROLE",
    ],
    [
      ["ask", "Who leads it?", "--base-url", "localhost:11434"],
      "option '--base-url <url>' argument 'localhost:11434' is invalid",
    ],
    [
      ["keys", "create", "--tenant", "t", "--user", "u", "--rate", "fast"],
      "option '--rate <rate>' argument 'fast' is invalid",
    ],
    [["eval", "examples/acme", "--concurrency", "0"], "option '--concurrency <n>' argument '0' is invalid"],
    [["doctor", "--timeout-ms", "never"], "option '--timeout-ms <n>' argument 'never' is invalid"],
    [["serve", "--port", "99999"], "option '--port <n>' argument '99999' is invalid"],
    [
      ["ask", "Who leads it?", "--max-steps", "x"],
      "option '--max-steps <n>' argument 'x' is invalid. It must be a whole number of at least 1.",
    ],
    [["ask", "Who leads it?", "--max-tool-calls", "-1"], "option '--max-tool-calls <n>' argument '-1' is invalid"],
    [
      ["ask", "Who leads it?", "--checkpoint", "sometimes"],
      "option '--checkpoint <kind>' argument 'sometimes' is invalid",
    ],
    [["ask", "Who leads it?", "--preset", "reckless"], "option '--preset <preset>' argument 'reckless' is invalid"],
    [["ingest", "examples/acme", "--max-file-mb", "lots"], "option '--max-file-mb <n>' argument 'lots' is invalid"],
  ];

  it.each(cases)("%j", async (args, message) => {
    const run = await ferret([...args, "--db", db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error: ${message}`);
    expectClean(run.stderr);
  });

  it.each([
    [["ask", ""], "ferret: the question is empty"],
    [["ask", "   "], "ferret: the question is empty"],
    [["search", ""], "ferret: the search query is empty"],
    [["ask", "q".repeat(4001)], "ferret: the question is 4,001 characters long; the limit is 4,000"],
  ])("input %j gets a clear error", async (args, message) => {
    const run = await ferret([...args, "--db", db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expectClean(run.stderr);
  });
});

describe("a closed output pipe (ferret ... | head)", () => {
  it.each([
    [["search", "telemetry gateway", "--k", "20"]],
    [["sources"]],
    [["ask", "Who leads the team that owns the Telemetry Gateway?", "--stream", "--json"]],
    [["ask", "Who leads the team that owns the Telemetry Gateway?"]],
    [["config"]],
    [["doctor"]],
  ])("%j exits 0 without a stack trace", async (args) => {
    const run = await ferret([...args, "--db", db, "--as", "acme:owner:*"], { closeStdout: true });
    expect(run.stderr).not.toContain("EPIPE");
    expectClean(run.stderr);
    expect(run.code).toBe(0);
  });
});

describe("--version", () => {
  it("prints the package's version and exits 0", async () => {
    const { readFileSync } = await import("node:fs");
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const run = await ferret([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(pkg.version);
    }
  });
});
