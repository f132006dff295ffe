import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../spec/errors.js";
import { chatCompletion, type ScriptedServer, startScriptedServer } from "./__fixtures__/scripted-openai-server.js";
import { resolveModel } from "./resolve.js";

function configFile(value: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "ferret-models-"));
  const file = join(dir, "ferret.config.json");
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

function modelIdOf(model: unknown): string {
  return (model as { modelId: string }).modelId;
}

describe("resolveModel", () => {
  it("resolves each provider with its default capabilities", () => {
    const env = { OPENAI_API_KEY: "sk-1", ANTHROPIC_API_KEY: "sk-ant-1" };
    const openai = resolveModel({ spec: "openai:gpt-4o-mini", env });
    expect(openai).toMatchObject({
      id: "openai:gpt-4o-mini",
      provider: "openai",
      modelId: "gpt-4o-mini",
      supportsTools: true,
    });
    expect(openai.pricing).toEqual({ input: 0.15, output: 0.6, source: "table" });
    expect(modelIdOf(openai.model)).toBe("gpt-4o-mini");
    expect(resolveModel({ spec: "anthropic:claude-haiku-4-5", env }).pricing.source).toBe("table");
    const ollama = resolveModel({ spec: "ollama:qwen3", env: {} });
    expect(ollama).toMatchObject({ id: "ollama:qwen3", supportsTools: true, pricing: { source: "local" } });
  });

  it("lists the known providers for an unknown one", () => {
    expect(() => resolveModel({ spec: "mistral:large", env: {} })).toThrow(InvalidInputError);
    expect(() => resolveModel({ spec: "mistral:large", env: {} })).toThrow(
      /unknown provider "mistral"; use openai:<model>, anthropic:<model>, ollama:<model>, openai-compatible:<model>/,
    );
    expect(() => resolveModel({ spec: "gpt-4o", env: {} })).toThrow(/model "gpt-4o": unknown provider "gpt-4o"/);
    expect(() => resolveModel({ spec: "openai:", env: { OPENAI_API_KEY: "k" } })).toThrow(/names no model/);
  });

  it("needs an API key for hosted providers, read from env at resolve time", () => {
    expect(() => resolveModel({ spec: "openai:gpt-4o", env: {} })).toThrow(/set OPENAI_API_KEY/);
    expect(() => resolveModel({ spec: "anthropic:claude-sonnet-4-5", env: {} })).toThrow(/set ANTHROPIC_API_KEY/);
    expect(resolveModel({ spec: "openai:gpt-4o", apiKey: "sk-flag", env: {} }).id).toBe("openai:gpt-4o");
  });

  it("needs a base URL for openai-compatible endpoints", () => {
    expect(() => resolveModel({ spec: "openai-compatible:llama", env: {} })).toThrow(/needs a base URL/);
    const viaEnv = resolveModel({ spec: "openai-compatible:llama", env: { FERRET_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(viaEnv).toMatchObject({ modelId: "llama", structuredOutputs: false, pricing: { source: "unknown" } });
  });

  it("takes endpoint, model id, key env, tool support and price from the config file", () => {
    const file = configFile({
      models: {
        "local-llama": {
          baseUrl: "http://127.0.0.1:9/v1",
          model: "llama-3.1-8b-instruct",
          apiKeyEnv: "LLAMA_KEY",
          supportsTools: false,
          pricing: { input: 0.1, output: 0.2 },
        },
        "openai:gpt-4o": { pricing: { input: 1, output: 4 } },
      },
    });
    const local = resolveModel({ spec: "openai-compatible:local-llama", configFile: file, env: { LLAMA_KEY: "k" } });
    expect(local).toMatchObject({
      modelId: "llama-3.1-8b-instruct",
      supportsTools: false,
      pricing: { input: 0.1, output: 0.2, source: "user" },
    });
    const gpt = resolveModel({ spec: "openai:gpt-4o", configFile: file, env: { OPENAI_API_KEY: "k" } });
    expect(gpt.pricing).toEqual({ input: 1, output: 4, source: "user" });
  });

  it("names the file and field of a bad config", () => {
    const file = configFile({ models: { x: { baseUrl: "not a url" } } });
    try {
      resolveModel({ spec: "openai-compatible:x", configFile: file, env: {} });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).context).toMatchObject({ file, field: "models.x.baseUrl" });
    }
    expect(() => resolveModel({ spec: "openai-compatible:x", configFile: configFile("{nope"), env: {} })).toThrow(
      /not valid JSON/,
    );
    expect(() =>
      resolveModel({ spec: "openai-compatible:x", configFile: "/nonexistent/ferret.config.json", env: {} }),
    ).toThrow(/Cannot read model config/);
  });

  describe("over HTTP", () => {
    let server: ScriptedServer;
    beforeAll(async () => {
      server = await startScriptedServer();
    });
    afterAll(async () => {
      await server.close();
    });

    it("sends the key from the environment snapshot taken at resolve time", async () => {
      const env: Record<string, string | undefined> = {
        FERRET_BASE_URL: `${server.url}/v1`,
        FERRET_API_KEY: "key-at-resolve",
      };
      const resolved = resolveModel({ spec: "openai-compatible:m", env });
      env.FERRET_API_KEY = "changed-later";
      server.push(chatCompletion({ content: "ok" }));
      const result = await generateText({ model: resolved.model, prompt: "hi", maxRetries: 0 });
      expect(result.text).toBe("ok");
      expect(server.requests[0]?.headers.authorization).toBe("Bearer key-at-resolve");
    });

    it("uses an injected fetch", async () => {
      const seen: string[] = [];
      const resolved = resolveModel({
        spec: "openai-compatible:m",
        baseUrl: `${server.url}/v1`,
        env: {},
        fetch: (input, init) => {
          seen.push(String(input));
          return fetch(input, init);
        },
      });
      server.push(chatCompletion({ content: "ok" }));
      await generateText({ model: resolved.model, prompt: "hi", maxRetries: 0 });
      expect(seen).toEqual([`${server.url}/v1/chat/completions`]);
    });
  });
});
