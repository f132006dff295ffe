import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { buildProgram } from "../../src/cli/main.js";
import { acmeDb, BIN, ferret, ROOT, tempDir } from "./run-cli.js";

const OWNER = "acme:owner:*";
let db: string;
beforeAll(async () => {
  db = await acmeDb("file");
});

/** A loopback port nobody listens on (opened, then closed): connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("global options", () => {
  it("are listed once, in `ferret --help`; a command's help points there instead of repeating them", async () => {
    const top = await ferret(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout.match(/--db <file\|url>/g)).toHaveLength(1);
    expect(top.stdout).toContain("--model <spec>");
    for (const command of ["search", "ask", "sources", "ingest", "chat", "serve", "config"]) {
      const help = await ferret([command, "--help"]);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).not.toContain("--db <file");
      expect(help.stdout, command).not.toContain("--embedder <spec>");
      expect(help.stdout, command).toContain(
        "Global options (--db, --config, --model, --as, --json, ...): see `ferret --help`.",
      );
    }
  });

  it("work before or after the command", async () => {
    const before = await ferret(["--db", db, "--json", "search", "Telemetry Gateway", "--k", "1"]);
    const after = await ferret(["search", "Telemetry Gateway", "--k", "1", "--db", db, "--json"]);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
  });
});

describe("one meaning per flag name", () => {
  /** Values of every kind a flag takes: a flag shared by two commands must accept and refuse the same ones. */
  const SAMPLES = ["auto", "rag", "keyword", "5", "abc", "0.5", "2024-01-31", "acme"];

  it("a flag on several commands parses every sample value alike (search's --match is not ask's --mode)", () => {
    const byName = new Map<string, { command: string; parse: (v: string) => unknown }[]>();
    const visit = (command: ReturnType<typeof buildProgram>, path: string) => {
      for (const option of command.options) {
        if (option.hidden || !option.long) continue;
        const parse = (value: string) => {
          try {
            const parsed = option.parseArg ? option.parseArg(value, undefined as never) : value;
            return Array.isArray(parsed) ? parsed.at(-1) : parsed;
          } catch {
            return "(refused)";
          }
        };
        const list = byName.get(option.long) ?? [];
        list.push({ command: path, parse: option.required || option.optional ? parse : () => true });
        byName.set(option.long, list);
      }
      for (const sub of command.commands) visit(sub, `${path} ${sub.name()}`.trim());
    };
    visit(
      buildProgram(() => {}),
      "",
    );
    const shared = [...byName.entries()].filter(([, list]) => list.length > 1);
    expect(shared.map(([name]) => name)).toContain("--mode");
    for (const [name, list] of shared) {
      for (const sample of SAMPLES) {
        const results = new Set(list.map((o) => JSON.stringify(o.parse(sample))));
        expect(results.size, `${name} ${sample} on ${list.map((o) => o.command).join(", ")}`).toBe(1);
      }
    }
  });
});

describe("exit status", () => {
  it("every code is documented in docs/cli.md", async () => {
    const docs = await readFile(`${ROOT}docs/cli.md`, "utf8");
    for (const code of Object.values(EXIT)) expect(docs).toMatch(new RegExp(`^\\| ${code} \\|`, "m"));
  });

  it("an unreachable model is exit 3 with the cause, not a refusal with exit 0", async () => {
    const port = await closedPort();
    const args = ["ask", "Who leads the team that owns the Telemetry Gateway?", "--db", db, "--as", OWNER];
    const model = ["--model", "ollama:qwen3", "--base-url", `http://127.0.0.1:${port}/api`];
    const run = await ferret([...args, ...model]);
    expect(run.code).toBe(EXIT.infrastructure);
    expect(run.stderr).toContain("ferret: ollama:qwen3 could not be used:");
    expect(run.stderr).toContain("Cannot connect to API");
    expect(run.stderr).toContain("ferret doctor");
    expect(run.stdout).not.toContain("I could not answer");
    // Programs still get the answer record, and the same status.
    const json = await ferret([...args, ...model, "--json"]);
    expect(json.code).toBe(EXIT.infrastructure);
    expect((JSON.parse(json.stdout) as { status: string }).status).not.toBe("answered");
  });

  it("a refusal from the evidence is a finished run: exit 0", async () => {
    const run = await ferret(["ask", "What is the capital of the moon base zeta?", "--db", db, "--as", OWNER]);
    expect(run.code).toBe(EXIT.ok);
  });
});

describe("a refusal for people is short; the details are in --json and the trace", () => {
  it("says why in a few words and names the trace command", async () => {
    const question = "What is the capital of the moon base zeta?";
    const human = await ferret(["ask", question, "--db", db, "--as", OWNER]);
    const [body] = human.stdout.split("\n\n— ");
    expect(body).toMatch(
      /^I could not answer this from the sources \([^)]+; \d+ searches?\)\.\nDetails: ferret trace [\w-]+$/,
    );
    expect(human.stdout).not.toContain("Searched:");
    expect(human.stdout).not.toContain("Missing:");
    const json = await ferret(["ask", question, "--db", db, "--as", OWNER, "--json"]);
    const answer = JSON.parse(json.stdout) as { status: string; text: string; runId: string };
    expect(answer.status).toBe("refused");
    expect(answer.text).toContain("Searched:");
    const trace = await ferret(["trace", answer.runId, "--db", db, "--as", OWNER]);
    expect(trace.code).toBe(0);
    expect(trace.stdout).toContain(`run ${answer.runId}`);
  });
});

describe("ferret sources", () => {
  it("shows tenant, kind, counts and the last ingest", async () => {
    const run = await ferret(["sources", "--db", db, "--as", OWNER]);
    expect(run.code).toBe(0);
    const [header, ...rows] = run.stdout.trim().split("\n");
    expect(header).toMatch(/^source\s+tenant\s+kind\s+acl\s+docs\s+chunks\s+last ingest \(UTC\)\s+description$/);
    const handbook = rows.find((r) => r.startsWith("handbook "));
    expect(handbook).toMatch(/^handbook\s+acme\s+documents\s+everyone\s+9\s+9\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+/);
    const json = JSON.parse((await ferret(["sources", "--db", db, "--as", OWNER, "--json"])).stdout) as {
      tenant: string;
      lastIngestAt?: string;
    }[];
    expect(json.every((s) => s.tenant === "acme" && typeof s.lastIngestAt === "string")).toBe(true);
  });
});

/** Runs `ferret chat` with lines on standard input (a pipe), keeping both outputs. */
function chat(lines: string[], end = true): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "chat", "--db", db, "--as", OWNER], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.write(`${lines.join("\n")}\n`);
    if (end) child.stdin.end();
  });
}

describe("ferret chat", () => {
  it("/exit quits (what follows is not asked), with no debug output", async () => {
    const run = await chat(["Which team owns the Launch Scheduler?", "/exit", "Who leads it?"], false);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Range Operations");
    expect(run.stdout).not.toContain("Marco Bellini");
    expect(run.stderr).toBe("");
  });

  it.each([["quit"], ["exit"], ["/quit"]])("%s quits instead of being asked", async (word) => {
    const run = await chat([word, "Which team owns the Launch Scheduler?"], false);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("Range Operations");
    expect(run.stdout).not.toContain("could not answer");
  });

  it("/sources lists the sources, /trace shows the last run, /new forgets the history; Ctrl-D (end of input) quits", async () => {
    const run = await chat([
      "/trace",
      "/sources",
      "Which team owns the Launch Scheduler?",
      "/trace",
      "/new",
      "/trace",
      "Who leads it?",
      "/bogus",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const turns = run.stdout.split("you> ");
    expect(turns[1]).toContain("(no answer yet in this conversation)");
    expect(turns[2]).toMatch(/^source\s+tenant\s+kind/);
    expect(turns[2]).toContain("handbook");
    expect(turns[3]).toContain("Range Operations");
    expect(turns[4]).toMatch(/^run [\w-]+ /);
    expect(turns[4]).toContain("question: Which team owns the Launch Scheduler?");
    expect(turns[5]).toContain("(new conversation)");
    expect(turns[6]).toContain("(no answer yet in this conversation)");
    // Without the history, "it" is nobody: the Launch Scheduler team's lead is not found.
    expect(turns[7]).not.toContain("Marco Bellini");
    expect(turns[8]).toContain("unknown command /bogus; /help lists them");
  });
});

describe("read-only commands never create a store", () => {
  it.each([
    [["search", "telemetry"]],
    [["sources"]],
    [["ask", "Who leads it?"]],
    [["trace", "r1"]],
    [["chat"]],
    [["keys", "list"]],
    [["config"]],
  ])("%j in an empty folder: creates nothing; the missing store points at init and ingest", async (args) => {
    const dir = await tempDir("ferret-empty-");
    const run = await ferret(args, { cwd: dir });
    expect(await readdir(dir)).toEqual([]);
    if (args[0] === "config") {
      expect(run.code).toBe(0);
      return;
    }
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain("no knowledge base at");
    expect(run.stderr).toContain("`ferret init` or `ferret ingest PATH`");
  });
});
