import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { configFileSchema } from "../../src/config/config-schema.js";
import { BIN, tempDir } from "./run-cli.js";

const HAS_TMUX = spawnSync("tmux", ["-V"]).status === 0;
const SOCKET = `ferret-init-test-${process.pid}`;

const tmux = (...args: string[]) =>
  execFileSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8", env: { ...cleanEnv(), TERM: "xterm-256color" } });

function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("FERRET_") || key.endsWith("_API_KEY")) delete env[key];
  return env;
}

/** The screen, polled until it shows `text` (the prompt is drawn), or a failure naming what was on it. */
async function waitFor(text: string | RegExp, limit = 300): Promise<string> {
  let screen = "";
  for (let i = 0; i < limit; i++) {
    screen = tmux("capture-pane", "-p", "-t", "init", "-S", "-200");
    if (typeof text === "string" ? screen.includes(text) : text.test(screen)) return screen;
    await sleep(200);
  }
  throw new Error(`the screen never showed ${String(text)}:\n${screen}`);
}

const keys = (...k: string[]) => tmux("send-keys", "-t", "init", ...k);

afterEach(() => {
  if (HAS_TMUX) spawnSync("tmux", ["-L", SOCKET, "kill-server"]);
});

describe("ferret init on a terminal", () => {
  it.skipIf(!HAS_TMUX)("asks through the prompts, in a pseudo-terminal, and writes what was chosen", async () => {
    const dir = await tempDir("ferret-init-tty-");
    await mkdir(join(dir, "handbook"));
    await mkdir(join(dir, "people"));
    await writeFile(join(dir, "handbook", "gateway.md"), "# Telemetry Gateway\n\nOwned by the Data Platform Team.\n");
    await writeFile(join(dir, "people", "bands.md"), "# Salary bands\n\nBand E4 pays 120,000 EUR.\n");
    tmux(
      "new-session",
      "-d",
      "-s",
      "init",
      "-x",
      "160",
      "-y",
      "50",
      `node ${BIN} init ${dir}; echo "EXIT:$?"; sleep 60`,
    );

    await waitFor("Sources to ingest");
    keys("Enter");
    await waitFor("What does handbook hold?");
    keys("Enter");
    await waitFor("Who may read handbook?");
    keys("Enter");
    await waitFor("What does people hold?");
    keys("C-u");
    keys("-l", "salary bands and pay policy");
    keys("Enter");
    await waitFor("Who may read people?");
    keys("-l", "hr");
    keys("Enter");
    await waitFor("Embedder");
    keys("Enter");
    await waitFor(/◆\s+Model/);
    keys("Enter");
    await waitFor("Behaviour");
    keys("Down");
    keys("Enter");
    await waitFor("Pause for you before each answer");
    keys("Enter");
    await waitFor("Ask a first question");
    keys("Enter");
    const screen = await waitFor(/EXIT:\d+/);
    expect(screen).toContain("EXIT:0");
    expect(screen).toContain("Ready.");

    const config = configFileSchema.parse(JSON.parse(readFileSync(join(dir, "ferret.config.json"), "utf8")));
    expect(config.ask?.preset).toBe("thorough");
    expect(config.sources).toEqual([
      expect.objectContaining({ name: "handbook", path: "handbook" }),
      { name: "people", path: "people", description: "salary bands and pay policy", acl: ["hr"] },
    ]);
    expect(config.sources?.[0]?.acl).toBeUndefined();
  });
});
