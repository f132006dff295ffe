/**
 * Local PostgreSQL servers for tests: PGlite over its socket server in a child process (with pgvector and
 * pg_textsearch) on a random loopback port, and, where `initdb` and `pg_ctl` are on PATH, a throw-away
 * PostgreSQL cluster in a temporary folder. Each gives a URL and a `stop` that removes everything.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

export interface TestServer {
  url: string;
  /** A fresh, empty database on the server (each test store gets its own). */
  database(): Promise<string>;
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));

/** How long a test file waits for its servers to start (PGlite boots WebAssembly PostgreSQL; initdb writes a cluster). */
export const SERVER_START_MS = 180_000;

/** Starts `pglite-server.mjs` on a free port and waits for the URL it prints. */
export async function startPglite(): Promise<TestServer> {
  const child = spawn(
    process.execPath,
    [join(here, "pglite-server.mjs"), "--port", "0", "--json", "--exit-with-stdin"],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout?.on("data", (data: Buffer) => {
      out += data.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) {
        try {
          resolve((JSON.parse(line) as { url: string }).url);
        } catch (error) {
          reject(error);
        }
      }
    });
    child.stderr?.on("data", (data: Buffer) => {
      err += data.toString();
    });
    child.on("exit", (code) => reject(new Error(`the PGlite server exited (${code}): ${err}`)));
  });
  // PGlite serves one database; each test store gets a fresh one by dropping ferret's objects first.
  return {
    url,
    database: async () => {
      await resetPglite(url);
      return url;
    },
    stop: () => stopChild(child),
  };
}

/** Empties the PGlite database between tests (it has only one): ferret's schemas and roles go. */
async function resetPglite(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const schemas = await client.query<{ name: string }>(
      "SELECT nspname AS name FROM pg_namespace WHERE nspname = 'ferret' OR nspname LIKE 'ferret\\_t\\_%'",
    );
    for (const { name } of schemas.rows) await client.query(`DROP SCHEMA "${name}" CASCADE`);
  } finally {
    await client.end();
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.stdin?.end();
    child.kill("SIGTERM");
  });
}

function onPath(command: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** True where a throw-away cluster can be made (initdb and pg_ctl on PATH). */
export function clusterAvailable(): boolean {
  return onPath("initdb") && onPath("pg_ctl");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** initdb refuses to run as root: there, the cluster's programs run as the `postgres` (or `nobody`) user. */
function asUser(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  for (const user of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", user]).toString().trim());
      const gid = Number(execFileSync("id", ["-g", user]).toString().trim());
      return { prefix: ["runuser", "-u", user, "--"], uid, gid };
    } catch {
      // next
    }
  }
  return { prefix: [] };
}

/** A PostgreSQL cluster in a temporary folder on a free loopback port, trust authentication, C locale. */
export async function startCluster(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "ferret-pg-"));
  const user = asUser();
  if (user.uid !== undefined && user.gid !== undefined) {
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
  }
  const data = join(dir, "data");
  const run = (args: string[]) => {
    const [command, ...rest] = [...user.prefix, ...args];
    execFileSync(command as string, rest, { stdio: "pipe" });
  };
  const port = await freePort();
  try {
    run(["initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"]);
    run([
      "pg_ctl",
      "-D",
      data,
      "-l",
      join(dir, "log"),
      "-w",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
      "start",
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let count = 0;
  return {
    url,
    database: async () => {
      const name = `ferret_test_${++count}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop: async () => {
      try {
        run(["pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
