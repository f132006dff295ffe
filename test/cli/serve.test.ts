import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { acmeDb, BIN, ferret, ROOT } from "./run-cli.js";

const QUESTION = "Who leads the team that owns the Telemetry Gateway?";

/** `ferret serve` as a real process on a free port: its URL (from the "listening" log line) and its exit. */
async function serve(db: string): Promise<{ url: string; stop: () => Promise<number | null>; log: string[] }> {
  const child = spawn(process.execPath, [BIN, "serve", "--db", db, "--port", "0"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  child.stderr.setEncoding("utf8").on("data", (d: string) => log.push(d));
  const url = await new Promise<string>((resolve, reject) => {
    child.once("close", (code) => reject(new Error(`ferret serve exited ${code}: ${log.join("")}`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      log.push(line);
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === "ferret serve listening" && entry.url) resolve(entry.url);
    });
  });
  return {
    url,
    log,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

describe("ferret keys and ferret serve (the README's commands)", () => {
  it("a created key streams an answer; keys list hides the secret; a revoked key gets 401; SIGTERM stops cleanly", async () => {
    const db = await acmeDb();
    const created = await ferret(["keys", "create", "--tenant", "acme", "--user", "me", "--roles", "eng", "--db", db]);
    expect(created.code).toBe(0);
    const key = created.stdout.split("\n")[0] ?? "";
    expect(key).toMatch(/^fk_[0-9a-f]{12}_/);
    const id = key.slice(3, 15);
    const listed = await ferret(["keys", "list", "--db", db]);
    expect(listed.stdout).toContain(`${id}  acme:me  eng`);
    expect(listed.stdout).not.toContain(key.slice(16));

    const server = await serve(db);
    try {
      const res = await fetch(`${server.url}/v1/ask/stream`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ question: QUESTION }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
      const text = await res.text();
      expect(text).toContain('"type":"source-document"');
      expect(text).toContain("Dana Okafor");
      expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
      // The logs carry no question or answer text by default.
      expect(server.log.join("\n")).not.toContain("Dana Okafor");
      expect(server.log.join("\n")).not.toContain(QUESTION);

      const revoked = await ferret(["keys", "revoke", id, "--db", db]);
      expect(revoked).toMatchObject({ code: 0, stdout: `revoked ${id}\n` });
      const after = await fetch(`${server.url}/v1/sources`, { headers: { authorization: `Bearer ${key}` } });
      expect(after.status).toBe(401);
      expect((await ferret(["keys", "revoke", id, "--db", db])).code).toBe(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(server.log.join("\n")).toContain('"msg":"stopped"');
  });
});
