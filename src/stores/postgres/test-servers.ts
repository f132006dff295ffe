/**
 * Local PostgreSQL servers for tests: PGlite over its socket server in a child process (with pgvector and
 * pg_textsearch) on a random loopback port, and, where `initdb` and `pg_ctl` are on PATH, a throw-away
 * PostgreSQL cluster in a temporary folder. Each gives a URL, whether it offers pgvector, and a `stop` that
 * removes everything.
 *
 * The cluster has pgvector where the machine's PostgreSQL has it installed (a developer's machine may; the
 * test machines' PostgreSQL 15 has not). FERRET_TEST_PGVECTOR=off hides it there (see `hidePgvector`), so the
 * paths without pgvector are tested on a machine that has it.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { setupDatabase } from "./schema.js";

export interface TestServer {
  url: string;
  /**
   * The server offers pgvector: `CREATE EXTENSION vector` can succeed there (it is among
   * pg_available_extensions, and not hidden by FERRET_TEST_PGVECTOR=off). Tests decide by this, not by the
   * kind of server.
   */
  pgvector: boolean;
  /** A fresh, empty database on the server (each test store gets its own). */
  database(): Promise<string>;
  stop(): Promise<void>;
}

/** A fresh database on `server` migrated only up to schema `version`, for upgrade tests; its URL. */
export async function databaseAtVersion(server: TestServer, version: number): Promise<string> {
  const url = await server.database();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await setupDatabase(client, url, { version });
    const row = await client.query<{ v: number }>("SELECT max(version) AS v FROM ferret.schema_migrations");
    if (row.rows[0]?.v !== version) throw new Error(`expected schema version ${version}, found ${row.rows[0]?.v}`);
  } finally {
    await client.end();
  }
  return url;
}

const here = dirname(fileURLToPath(import.meta.url));

/** How long a server gets to stop politely before it is killed (and how long the kill may take to show). */
const STOP_GRACE_MS = 5_000;

/**
 * The timeouts of a test file's hooks that start and stop its servers. Starting is slow (PGlite boots
 * WebAssembly PostgreSQL; initdb writes a cluster); stops run at once and each is bounded (a polite stop for
 * `STOP_GRACE_MS`, then a kill). `stop` leaves room past those bounds for removing a cluster's folder and for
 * process start-up on a machine under heavy load (at a load average of 25 one teardown took over 30 s).
 */
export const SERVER_MS = { start: 180_000, stop: 90_000 } as const;

/** Stops every server that started (at once; one that failed to start is passed over). */
export async function stopServers(servers: Iterable<Promise<TestServer> | undefined>): Promise<void> {
  await Promise.allSettled([...servers].map(async (server) => (await server)?.stop()));
}

/** The servers a test file runs on: PGlite always, and a throw-away cluster where `initdb` and `pg_ctl` are on PATH. */
export function serverKinds(): [kind: string, start: () => Promise<TestServer>][] {
  const kinds: [string, () => Promise<TestServer>][] = [["PGlite", startPglite]];
  if (clusterAvailable()) kinds.push(["PostgreSQL 15 cluster", startCluster]);
  return kinds;
}

/**
 * One `describe` block per server kind (see `serverKinds`), titled `title(kind)`: its server starts in the
 * block's `beforeAll` (not inside a test's time), and every server the call started stops in one `afterAll`
 * of the file. `body` gets the block's server, to await in its tests.
 */
export function describeOnServers(
  title: (kind: string) => string,
  body: (server: () => Promise<TestServer>, kind: string) => void,
): void {
  const servers: Promise<TestServer>[] = [];
  afterAll(() => stopServers(servers), SERVER_MS.stop);
  for (const [kind, start] of serverKinds()) {
    describe(title(kind), () => {
      let server: Promise<TestServer> | undefined;
      beforeAll(async () => {
        server = start();
        servers.push(server);
        await server;
      }, SERVER_MS.start);
      body(() => server ?? Promise.reject(new Error(`the ${kind} server starts in beforeAll, before any test`)), kind);
    });
  }
}

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
  let pgvector: boolean;
  try {
    pgvector = await offersPgvector(url);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  // PGlite serves one database; each test store gets a fresh one by dropping ferret's objects first.
  return {
    url,
    pgvector,
    database: async () => {
      await resetPglite(url);
      return url;
    },
    stop: () => stopChild(child),
  };
}

/** Whether pgvector is among the server's available extensions. */
async function offersPgvector(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const row = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    return (row.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/** FERRET_TEST_PGVECTOR=off: a throw-away cluster hides pgvector (see `hidePgvector`). */
function pgvectorHidden(): boolean {
  const env = process.env.FERRET_TEST_PGVECTOR;
  if (env === undefined || env === "" || env === "on") return false;
  if (env === "off") return true;
  throw new RangeError(`FERRET_TEST_PGVECTOR is on or off, got ${env}`);
}

/**
 * The statements that make `CREATE EXTENSION vector` fail in a database, as on a server without pgvector: an
 * event trigger at the end of CREATE EXTENSION raises when the extension created is `vector`, which rolls the
 * command back (pg_available_extensions still lists it; the store's attempt to create it fails, and it carries
 * on without, as where it is not installed). Run in template1, every database created after has it.
 */
const HIDE_PGVECTOR = `
CREATE SCHEMA ferret_test_hide;
CREATE FUNCTION ferret_test_hide.no_pgvector() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_event_trigger_ddl_commands() WHERE object_type = 'extension' AND object_identity = 'vector') THEN
    RAISE EXCEPTION 'pgvector is hidden on this test server (FERRET_TEST_PGVECTOR=off)' USING ERRCODE = 'feature_not_supported';
  END IF;
END $$;
CREATE EVENT TRIGGER ferret_test_no_pgvector ON ddl_command_end WHEN TAG IN ('CREATE EXTENSION')
  EXECUTE FUNCTION ferret_test_hide.no_pgvector();`;

/**
 * Hides pgvector on the cluster whose `postgres` database is at `url` (template1 and postgres get
 * `HIDE_PGVECTOR`); false, with nothing done, unless FERRET_TEST_PGVECTOR=off.
 */
async function hidePgvector(url: string): Promise<boolean> {
  if (!pgvectorHidden()) return false;
  for (const db of ["template1", "postgres"]) {
    const target = new URL(url);
    target.pathname = `/${db}`;
    const client = new pg.Client({ connectionString: target.toString() });
    await client.connect();
    try {
      await client.query(HIDE_PGVECTOR);
    } finally {
      await client.end();
    }
  }
  return true;
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

/** True once the child has exited; false when `ms` pass first. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off("exit", done);
      resolve(false);
    }, ms);
    function done() {
      clearTimeout(timer);
      resolve(true);
    }
    child.once("exit", done);
  });
}

/** SIGTERM (the server closes its database), then SIGKILL when it has not exited within `STOP_GRACE_MS`. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  child.kill("SIGTERM");
  if (await exited(child, STOP_GRACE_MS)) return;
  child.kill("SIGKILL");
  await exited(child, STOP_GRACE_MS);
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

/**
 * A PostgreSQL cluster in a temporary folder on a free loopback port, trust authentication, C locale.
 * `settings` are server parameters given at start (`-c name=value`), as a tuned server would have them.
 */
export async function startCluster(settings: Readonly<Record<string, string>> = {}): Promise<TestServer> {
  for (const [name, value] of Object.entries(settings)) {
    if (!/^[a-z_.]+$/.test(name) || !/^[A-Za-z0-9_.]+$/.test(value))
      throw new RangeError(
        `invalid server setting ${name}=${value}: a name of a-z, _ and ., a value of letters, digits, _ and .`,
      );
  }
  const extra = Object.entries(settings)
    .map(([name, value]) => ` -c ${name}=${value}`)
    .join("");
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
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100${extra}`,
      "start",
    ]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let pgvector: boolean;
  try {
    pgvector = !(await hidePgvector(url)) && (await offersPgvector(url));
  } catch (error) {
    await stopCluster(data, user.prefix).finally(() => rmSync(dir, { recursive: true, force: true }));
    throw error;
  }
  let count = 0;
  return {
    url,
    pgvector,
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
        await stopCluster(data, user.prefix);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * `pg_ctl stop -m immediate`, waiting at most `STOP_GRACE_MS`; when it fails or does not return in time, the
 * postmaster (its pid is the first line of `postmaster.pid`) is killed.
 */
async function stopCluster(data: string, prefix: string[]): Promise<void> {
  const seconds = String(Math.ceil(STOP_GRACE_MS / 1000));
  const [command, ...rest] = [...prefix, "pg_ctl", "-D", data, "-m", "immediate", "-w", "-t", seconds, "stop"];
  const stopped = await new Promise<boolean>((resolve) => {
    execFile(command as string, rest, { timeout: STOP_GRACE_MS + 1000, killSignal: "SIGKILL" }, (error) =>
      resolve(error === null),
    );
  });
  if (stopped) return;
  try {
    const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    if (Number.isSafeInteger(pid) && pid > 0) process.kill(pid, "SIGKILL");
  } catch {
    // No pid file or no such process: the server is gone.
  }
}

/** A primary and a hot standby streaming from it, each on its own loopback port. */
export interface ReplicaPair {
  /** The database on the primary, prepared before the standby was copied from it. */
  primary: string;
  /** The same database on the standby (read-only). */
  standby: string;
  stop(): Promise<void>;
}

/**
 * A throw-away primary and a streaming hot standby (where `initdb` and `pg_ctl` are on PATH). The primary
 * gets database `ferret_replica`, which `prepare` sets up (schema, roles); then the primary stops cleanly, its
 * folder is copied as the standby's (a cold base backup, as pg_basebackup is not always installed), the copy
 * gets `standby.signal` and a `primary_conninfo`, and both start. initdb's trust rules allow replication from
 * loopback, and wal_level `replica` is the default.
 */
export async function startReplicaPair(prepare: (url: string) => Promise<void>): Promise<ReplicaPair> {
  const dir = mkdtempSync(join(tmpdir(), "ferret-pgr-"));
  const user = asUser();
  if (user.uid !== undefined && user.gid !== undefined) {
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
  }
  const run = (args: string[]) => {
    const [command, ...rest] = [...user.prefix, ...args];
    execFileSync(command as string, rest, { stdio: "pipe" });
  };
  const primaryData = join(dir, "primary");
  const standbyData = join(dir, "standby");
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const start = (data: string, port: number) =>
    run([
      "pg_ctl",
      "-D",
      data,
      "-l",
      `${data}.log`,
      "-w",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`,
      "start",
    ]);
  const urlOf = (port: number, db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const stopAll = async () => {
    try {
      await stopCluster(standbyData, user.prefix);
      await stopCluster(primaryData, user.prefix);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    run(["initdb", "-D", primaryData, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"]);
    start(primaryData, primaryPort);
    await hidePgvector(urlOf(primaryPort, "postgres"));
    const admin = new pg.Client({ connectionString: urlOf(primaryPort, "postgres") });
    await admin.connect();
    try {
      await admin.query("CREATE DATABASE ferret_replica");
    } finally {
      await admin.end();
    }
    await prepare(urlOf(primaryPort, "ferret_replica"));
    run(["pg_ctl", "-D", primaryData, "-m", "fast", "-w", "stop"]);
    run(["cp", "-a", primaryData, standbyData]);
    run(["touch", join(standbyData, "standby.signal")]);
    run([
      "sh",
      "-c",
      `echo "primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres'" >> ${join(standbyData, "postgresql.auto.conf")}`,
    ]);
    start(primaryData, primaryPort);
    start(standbyData, standbyPort);
  } catch (error) {
    await stopAll().catch(() => {});
    throw error;
  }
  return {
    primary: urlOf(primaryPort, "ferret_replica"),
    standby: urlOf(standbyPort, "ferret_replica"),
    stop: stopAll,
  };
}
