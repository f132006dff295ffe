import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveEmbedder } from "./resolve.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("local embedder without a network", () => {
  it("warns once, in one line, and falls back to keyword-only search", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "ferret-models-"));
    dirs.push(cacheDir);
    const warnings: string[] = [];
    const embedder = await resolveEmbedder({
      spec: "local:Xenova/all-MiniLM-L6-v2",
      cacheDir,
      env: {},
      localTimeoutMs: 20_000,
      onWarning: (message) => warnings.push(message),
    });
    expect(embedder).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^local embedder Xenova\/all-MiniLM-L6-v2: cannot download the model \(.+\); falling back to keyword-only search$/,
    );
    expect(warnings[0]).not.toContain("\n");
  });

  it("gives up when the hub does not answer within the time bound", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "ferret-models-"));
    dirs.push(cacheDir);
    const silent = createServer(() => {}); // accepts requests, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const warnings: string[] = [];
    try {
      const embedder = await resolveEmbedder({
        spec: "local:Xenova/all-MiniLM-L6-v2",
        cacheDir,
        env: { HF_ENDPOINT: `http://127.0.0.1:${port}/` },
        localTimeoutMs: 300,
        onWarning: (message) => warnings.push(message),
      });
      expect(embedder).toBeUndefined();
      expect(warnings).toEqual([
        "local embedder Xenova/all-MiniLM-L6-v2: cannot download the model (timed out after 300 ms); falling back to keyword-only search",
      ]);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
