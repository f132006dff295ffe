import { describe, expect, it } from "vitest";
import { resolveEmbedder } from "../embedders/resolve.js";
import { resolveReranker } from "../retrieval/rerank.js";
import { InvalidInputError } from "../spec/errors.js";
import { localModelCacheDir, parseProviderSpec } from "./provider-spec.js";
import { resolveModel } from "./resolve.js";

const KIND = { field: "model", what: "model", known: ["openai", "ollama"], usage: "openai:<model> or ollama:<model>" };

describe("parseProviderSpec", () => {
  it("splits at the first colon, so model names keep theirs", () => {
    expect(parseProviderSpec(" ollama:qwen3:8b ", KIND)).toEqual({
      provider: "ollama",
      name: "qwen3:8b",
      id: "ollama:qwen3:8b",
    });
    expect(parseProviderSpec("openai: gpt-4o-mini", KIND).id).toBe("openai:gpt-4o-mini");
  });

  it("names the field, the provider and the accepted forms; any provider passes when the kind lists none", () => {
    const error = (() => {
      try {
        parseProviderSpec("mistral:large", KIND);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).message).toBe(
      'model "mistral:large": unknown provider "mistral"; use openai:<model> or ollama:<model>',
    );
    expect((error as InvalidInputError).context).toMatchObject({ field: "model", known: ["openai", "ollama"] });
    expect(() => parseProviderSpec("openai:", KIND)).toThrow(/names no model after "openai:"/);
    expect(() => parseProviderSpec(":x", KIND)).toThrow(/unknown provider ""/);
    const open = { ...KIND, known: undefined };
    expect(parseProviderSpec("cohere:rerank-v3.5", open).provider).toBe("cohere");
  });

  it("is the one reader behind models, embedders and re-rankers (same wording, each naming its field)", async () => {
    expect(() => resolveModel({ spec: "magic:m", env: {} })).toThrow(
      /^model "magic:m": unknown provider "magic"; use /,
    );
    await expect(resolveEmbedder({ spec: "magic:m", env: {} })).rejects.toMatchObject({
      message: expect.stringMatching(/^embedder "magic:m": unknown provider "magic"; use none, local:<model>/),
      context: { field: "embedder" },
    });
    await expect(resolveEmbedder({ spec: "openai:", env: {} })).rejects.toThrow(/names no model after "openai:"/);
    await expect(resolveReranker({ spec: "cohere:", env: {} })).rejects.toMatchObject({
      message: expect.stringMatching(/^re-ranker "cohere:": names no model after "cohere:"; use none, lexical/),
      context: { field: "reranker" },
    });
  });

  it("keeps local models under XDG_CACHE_HOME, else the home cache", () => {
    expect(localModelCacheDir({ XDG_CACHE_HOME: "/c" })).toBe("/c/ferret/models");
    expect(localModelCacheDir({ XDG_CACHE_HOME: "  " })).toMatch(/\.cache\/ferret\/models$/);
  });
});
