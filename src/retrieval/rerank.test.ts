import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RerankingModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../spec/answer.js";
import { InvalidInputError, UpstreamError } from "../spec/errors.js";
import type { Passage } from "../spec/passage.js";
import type { RerankerV1 } from "../spec/reranker.js";
import { tempDir } from "./__fixtures__/corpus.js";
import { rerankEvidence, resolveReranker } from "./rerank.js";
import { createApiReranker } from "./rerank-api.js";
import { createLexicalReranker, lexicalScores } from "./rerank-lexical.js";
import { createCrossEncoderReranker, logitsToScores } from "./rerank-local.js";

const p = (id: string, text: string, extra: Partial<Passage> = {}): Passage => ({
  id,
  docId: id.split("::")[0] ?? id,
  source: "s",
  text,
  score: 0.5,
  ...extra,
});

const passages = [
  p("a::0", "The office opens at nine. Parking is free."),
  p("b::0", "Refunds are paid within 14 days of the request."),
  p("c::0", "The refund timeout of the payment gateway is 45 seconds; refund calls retry twice."),
];

/** A reranking model that records its calls and ranks by a given order. */
function mockModel(order: number[], calls: string[]): RerankingModelV3 {
  return {
    specificationVersion: "v3",
    provider: "mock",
    modelId: "rerank-1",
    async doRerank(options) {
      calls.push(options.query);
      return { ranking: order.map((index, rank) => ({ index, relevanceScore: 1 - rank * 0.25 })) };
    },
  };
}

describe("lexical re-ranker", () => {
  it("puts the passage covering the most (and rarest) query terms first, scores in [0, 1]", async () => {
    const ranked = await createLexicalReranker().rerank("refund timeout of the gateway", passages);
    expect(ranked.map((x) => x.id)).toEqual(["c::0", "b::0", "a::0"]);
    for (const x of ranked) expect(x.score).toBeGreaterThanOrEqual(0);
    expect(ranked[0]?.score).toBe(1);
    expect(ranked[2]?.score).toBe(0);
  });

  it("counts the title and section, is deterministic, and gives 0 to every passage of an empty query", () => {
    const withTitle = [p("x::0", "It is 45 seconds.", { title: "Gateway timeout" }), p("y::0", "It is free.")];
    expect(lexicalScores("gateway timeout", withTitle)[0]).toBe(1);
    expect(lexicalScores("gateway timeout", withTitle)).toEqual(lexicalScores("gateway timeout", withTitle));
    expect(lexicalScores("the of", withTitle)).toEqual([0, 0]);
  });
});

describe("cross-encoder re-ranker", () => {
  it("orders by the pair scorer's scores, in batches, sending title and text", async () => {
    const seen: string[][] = [];
    const reranker = createCrossEncoderReranker({
      id: "local:test",
      batchSize: 2,
      score: async (_query, texts) => {
        seen.push(texts);
        return texts.map((t) => (t.includes("45 seconds") ? 0.9 : t.includes("Refunds") ? 0.6 : 0.1));
      },
    });
    const ranked = await reranker.rerank("q", [...passages, p("d::0", "x", { title: "T" })]);
    expect(ranked.map((x) => x.id)).toEqual(["c::0", "b::0", "a::0", "d::0"]);
    expect(seen.map((b) => b.length)).toEqual([2, 2]);
    expect(seen[1]?.[1]).toBe("T\nx");
  });

  it("turns one logit into a sigmoid and several into the last class's softmax", () => {
    expect(logitsToScores([2, 1], [0, 100])).toEqual([0.5, 1]);
    const [two] = logitsToScores([1, 2], [0, Math.log(3)]);
    expect(two).toBeCloseTo(0.75, 6);
  });

  it("falls back to no re-ranker with one warning line when the model cannot be had", async () => {
    // A hub that answers 404 for everything: the download fails at once, with no outside network.
    const server = createServer((_req, res) => res.writeHead(404).end()).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    const tmp = tempDir();
    const warnings: string[] = [];
    try {
      const reranker = await resolveReranker({
        spec: "local:Xenova/ms-marco-MiniLM-L-6-v2",
        cacheDir: tmp.dir,
        localRemoteHost: `http://127.0.0.1:${port}/`,
        localTimeoutMs: 30_000,
        onWarning: (m) => warnings.push(m),
      });
      expect(reranker).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^local re-ranker Xenova\/ms-marco-MiniLM-L-6-v2: cannot download the model/);
      expect(warnings[0]).not.toContain("\n");
    } finally {
      server.close();
      tmp.remove();
    }
  });
});

describe("API re-ranker", () => {
  it("re-ranks through the AI SDK model with the query, clamping scores", async () => {
    const calls: string[] = [];
    const reranker = createApiReranker({ model: mockModel([2, 0, 1], calls) });
    expect(reranker.id).toBe("mock:rerank-1");
    const ranked = await reranker.rerank("refund timeout", passages);
    expect(calls).toEqual(["refund timeout"]);
    expect(ranked.map((x) => [x.id, x.score])).toEqual([
      ["c::0", 1],
      ["a::0", 0.75],
      ["b::0", 0.5],
    ]);
  });

  it("puts passages the API left out last, and reports a failure as UpstreamError", async () => {
    const partial = createApiReranker({ model: mockModel([1], []) });
    expect((await partial.rerank("q", passages)).map((x) => x.id)).toEqual(["b::0", "a::0", "c::0"]);
    const failing: RerankingModelV3 = {
      ...mockModel([], []),
      doRerank: async () => {
        throw new Error("503 overloaded");
      },
    };
    await expect(createApiReranker({ model: failing, maxRetries: 0 }).rerank("q", passages)).rejects.toBeInstanceOf(
      UpstreamError,
    );
  });
});

describe("resolveReranker", () => {
  it("resolves none, lexical, a re-ranker, an AI SDK model and a provider package", async () => {
    expect(await resolveReranker({})).toBeUndefined();
    expect(await resolveReranker({ spec: "none" })).toBeUndefined();
    expect((await resolveReranker({ spec: "lexical" }))?.id).toBe("lexical");
    const own = createLexicalReranker();
    expect(await resolveReranker({ spec: own })).toBe(own);
    expect((await resolveReranker({ spec: mockModel([0], []) }))?.id).toBe("mock:rerank-1");
    const imported: string[] = [];
    const viaPackage = await resolveReranker({
      spec: "cohere:rerank-v3.5",
      importPackage: async (name) => {
        imported.push(name);
        return { cohere: { rerankingModel: (id: string) => ({ ...mockModel([0], []), modelId: id }) } };
      },
    });
    expect(imported).toEqual(["@ai-sdk/cohere"]);
    expect(viaPackage?.id).toBe("mock:rerank-v3.5");
  });

  it("throws InvalidInputError for a malformed spec or a provider package that is missing", async () => {
    await expect(resolveReranker({ spec: "local:" })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(resolveReranker({ spec: "cohere:rerank-v3.5" })).rejects.toThrow(/@ai-sdk\/cohere is not installed/);
    await expect(resolveReranker({ spec: "openai:gpt-4o" })).rejects.toThrow(/has no reranking models/);
  });
});

describe("rerankEvidence", () => {
  const item = (x: Passage, callId: string): EvidenceItem => ({ ...x, step: 1, callId });
  const evidence = [
    item(passages[0] as Passage, "c1"),
    item(passages[1] as Passage, "c2"),
    item(passages[2] as Passage, "c3"),
  ];

  it("orders evidence against the original question, keeping items and their retrieval scores", async () => {
    const asked: string[] = [];
    const lexical = createLexicalReranker();
    const spy: RerankerV1 = {
      ...lexical,
      rerank: (q, ps) => {
        asked.push(q);
        return lexical.rerank(q, ps);
      },
    };
    const out = await rerankEvidence({
      reranker: spy,
      question: "What is the refund timeout of the gateway?",
      evidence,
    });
    expect(asked).toEqual(["What is the refund timeout of the gateway?"]);
    expect(out.map((x) => x.callId)).toEqual(["c3", "c2", "c1"]);
    expect(out.every((x) => x.score === 0.5)).toBe(true);
    const top = await rerankEvidence({ reranker: lexical, question: "refund timeout", evidence, limit: 1 });
    expect(top.map((x) => x.id)).toEqual(["c::0"]);
  });

  it("keeps the order when the re-ranker fails, and keeps items it dropped", async () => {
    const failing: RerankerV1 = {
      specificationVersion: "v1",
      id: "x",
      rerank: () => Promise.reject(new Error("down")),
    };
    expect((await rerankEvidence({ reranker: failing, question: "q", evidence })).map((x) => x.callId)).toEqual([
      "c1",
      "c2",
      "c3",
    ]);
    const dropping: RerankerV1 = {
      specificationVersion: "v1",
      id: "y",
      rerank: async (_q, ps) => [ps[2] as Passage],
    };
    expect((await rerankEvidence({ reranker: dropping, question: "q", evidence })).map((x) => x.callId)).toEqual([
      "c3",
      "c1",
      "c2",
    ]);
  });
});
