import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { acmeDb, BIN, ROOT } from "./run-cli.js";

/** Runs `ferret chat` with the given lines on standard input (as a pipe, the way scripts drive it). */
function chat(db: string, lines: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "chat", "--db", db, "--as", "acme:owner:*"], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin.end(`${lines.join("\n")}\n\n`);
  });
}

describe("ferret chat", () => {
  it("answers a follow-up from the conversation's history, every piped line answered", async () => {
    const db = await acmeDb();
    const run = await chat(db, ["Which team owns the Launch Scheduler?", "Who leads it?"]);
    expect(run.code).toBe(0);
    const answers = run.stdout.split("you> ").slice(1, 3);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toContain("Range Operations");
    // "it" is the Launch Scheduler's team: the follow-up finds its lead.
    expect(answers[1]).toContain("Marco Bellini");
  });
});
