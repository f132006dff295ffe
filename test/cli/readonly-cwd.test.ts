import { spawnSync } from "node:child_process";
import { chmod, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ACME, ferret, ferretJson, tempDir } from "./run-cli.js";

/**
 * The CLI run from a folder it cannot write. `chmod 555` does not stop root, and these tests may run as
 * root: then the CLI runs as the unprivileged user `nobody` (uid/gid 65534), for whom the mode holds. A
 * probe checks first that the child really cannot write there, so the test cannot pass vacuously.
 */
const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

let readOnly: string;
let db: string;

beforeAll(async () => {
  const root = await tempDir("ferret-ro-", "file");
  // mkdtemp makes a 0700 folder: let the unprivileged child through to the two folders below.
  await chmod(root, 0o755);
  const data = join(root, "data");
  await mkdir(data);
  db = join(data, "ferret.db");
  await ferretJson(["ingest", ACME, "--tenant", "acme", "--db", db]);
  // SQLite needs to write the database and create its -wal and -shm files next to it.
  await chmod(data, 0o777);
  for (const file of await readdir(data)) await chmod(join(data, file), 0o666);
  readOnly = join(root, "read-only");
  await mkdir(readOnly);
  await chmod(readOnly, 0o555);
  const probe = spawnSync(process.execPath, ["-e", "require('fs').writeFileSync('probe', 'x')"], {
    cwd: readOnly,
    ...(user ?? {}),
    encoding: "utf8",
  });
  if (probe.status === 0)
    throw new Error("the read-only folder is writable for the child: the test would mean nothing");
  expect(probe.stderr).toContain("EACCES");
});

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => ferret(args, { cwd: readOnly, user, env });

describe("a read-only working folder", () => {
  it("search, sources, trace and ask work on an existing database named by --db or FERRET_DB", async () => {
    const search = await run(["search", "Telemetry Gateway", "--db", db, "--as", "acme:owner:*", "--json"]);
    expect(search.stderr).toBe("");
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout).length).toBeGreaterThan(0);

    const sources = await run(["sources", "--as", "acme:owner:*", "--json"], { FERRET_DB: db });
    expect(sources.code).toBe(0);
    expect(JSON.parse(sources.stdout).map((s: { name: string }) => s.name)).toContain("handbook");

    const asked = await run([
      "ask",
      "Who leads the team that owns the Telemetry Gateway?",
      "--db",
      db,
      "--as",
      "acme:owner:*",
      "--json",
    ]);
    expect(asked.code).toBe(0);
    const answer = JSON.parse(asked.stdout) as { text: string; runId: string };
    expect(answer.text).toContain("Dana Okafor");

    const trace = await run(["trace", answer.runId, "--db", db, "--as", "acme:owner:*", "--json"]);
    expect(trace.code).toBe(0);
    expect(await readdir(readOnly)).toEqual([]);
  });

  it("a read-only command without a database says where it looked and how to name one, creating nothing", async () => {
    for (const command of [["sources"], ["search", "telemetry"], ["ask", "Who leads it?"], ["trace", "r1"]]) {
      const result = await run(command);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `ferret: no knowledge base at ${join(readOnly, ".ferret", "ferret.db")}: create one with \`ferret init\` or \`ferret ingest PATH\`, or name an existing one with --db FILE or FERRET_DB\n`,
      );
    }
    expect(await readdir(readOnly)).toEqual([]);
  });

  it("ingest into the default location fails with a clear error naming the path, --db and FERRET_DB", async () => {
    const result = await run(["ingest", ACME]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `ferret: cannot create or open the knowledge base at ${join(readOnly, ".ferret", "ferret.db")} (EACCES`,
    );
    expect(result.stderr).toContain("name a writable location with --db FILE or the FERRET_DB environment variable");
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it("eval names the report folder it cannot write, before asking anything", async () => {
    const result = await run(["eval", join(ACME)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `ferret: cannot write the report folder ${join(readOnly, "eval-out", "acme")} (EACCES); name a writable one with --out DIR`,
    );
  });

  it("read-only commands do not create a database in a writable folder either", async () => {
    const writable = await tempDir("ferret-rw-");
    const result = await ferret(["search", "telemetry"], { cwd: writable });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no knowledge base at");
    expect(await readdir(writable)).toEqual([]);
  });
});
