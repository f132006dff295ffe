import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../spec/errors.js";
import { createHashingEmbedder, hashVector } from "./hashing.js";

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

describe("hash embedder", () => {
  it("is deterministic, normalised and sized as its id says", async () => {
    const embedder = createHashingEmbedder({ dimensions: 64 });
    expect(embedder.id).toBe("hash:64");
    expect(embedder.dimensions()).toBe(64);
    const [a, b] = await embedder.embed(["The quick brown fox", "The quick brown fox"]);
    expect(a).toHaveLength(64);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
  });

  it("puts texts that share words closer than texts that do not", () => {
    const query = hashVector("sqlite vector search", 256);
    const near = hashVector("Vector search in SQLite with sqlite-vec", 256);
    const far = hashVector("A recipe for banana bread", 256);
    expect(cosine(query, near)).toBeGreaterThan(cosine(query, far));
    expect(cosine(query, near)).toBeGreaterThan(0.3);
  });

  it("segments CJK text like the keyword index does", () => {
    const a = hashVector("東京都の天気", 128);
    const b = hashVector("東京の天気予報", 128);
    const c = hashVector("banana bread", 128);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c));
  });

  it("embeds a text without terms to the zero vector", () => {
    expect(Array.from(hashVector("  ... ", 8))).toEqual(new Array(8).fill(0));
  });

  it("rejects unusable dimensions", () => {
    expect(() => createHashingEmbedder({ dimensions: 3 })).toThrow(InvalidInputError);
    expect(() => createHashingEmbedder({ dimensions: 12.5 })).toThrow(InvalidInputError);
  });
});
