/**
 * The shared entity-graph suite: every store with a graph (`store.graph`, see spec/graph.ts) runs it
 * (`runGraphSuite("sqlite", open)`), so all adapters agree on keys, edges, evidence, replacement and ACL.
 * Mentions are given explicitly on the chunks, so the suite does not depend on the extractor.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChunkEntity, DocumentWrite } from "../spec/document.js";
import { type GraphStoreV1, graphOf } from "../spec/graph.js";
import type { Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";
import {
  ACME,
  acmeOwner,
  alice,
  type FixtureDoc,
  fixtureWrite,
  GLOBEX,
  harriet,
  type OpenStore,
  olga,
} from "./fixtures.js";

type Mention = [text: string, type: string];

export interface GraphFixture extends FixtureDoc {
  /** Mentions per paragraph; the title is added to every chunk as a `defines` mention of type `title`. */
  mentions: Mention[][];
}

/** A document write whose chunks carry their mentions and the title's `defines` mention. */
export function graphWrite(fixture: GraphFixture): DocumentWrite {
  const write = fixtureWrite(fixture);
  write.chunks.forEach((chunk, i) => {
    const title: ChunkEntity = { text: fixture.title, type: "title", role: "defines" };
    chunk.entities = [title, ...(fixture.mentions[i] ?? []).map(([text, type]) => ({ text, type }))];
  });
  return write;
}

export const GRAPH_DOCS: GraphFixture[] = [
  {
    id: "api/lanterns.md",
    source: "api_docs",
    title: "Lanterns API",
    paragraphs: [
      "PUT /v1/lanterns lights a lantern; lantern-relay answers those calls.",
      "Lanterns above 900 lumens need a sign-off from Safety Desk.",
    ],
    mentions: [
      [
        ["/v1/lanterns", "path"],
        ["lantern-relay", "code"],
      ],
      [["Safety Desk", "name"]],
    ],
  },
  {
    id: "services/lantern-relay.md",
    source: "handbook",
    title: "lantern-relay",
    paragraphs: [
      "lantern-relay belongs to the Harbor Crew and runs on 10.0.0.5.",
      "Outage OUT-7731 stopped lantern-relay for one night.",
    ],
    mentions: [
      [
        ["lantern-relay", "code"],
        ["Harbor Crew", "name"],
        ["10.0.0.5", "ip"],
      ],
      [
        ["OUT-7731", "identifier"],
        ["lantern-relay", "code"],
      ],
    ],
  },
  {
    id: "teams/harbor-crew.md",
    source: "handbook",
    title: "Harbor Crew",
    paragraphs: ["Harbor  Crew reports to Odile Brandt; pager at harbor-pager@acme.io."],
    mentions: [
      [
        ["Harbor  Crew", "name"],
        ["Odile Brandt", "name"],
        ["harbor-pager@acme.io", "email"],
      ],
    ],
  },
  {
    // Source `salaries` is readable by `hr` only.
    id: "salaries/odile.md",
    source: "salaries",
    title: "Compensation review",
    paragraphs: ["Odile Brandt moves to band L7 after review by Dana Smith; Project Nightjar is funded."],
    mentions: [
      [
        ["Odile Brandt", "name"],
        ["Dana Smith", "name"],
        ["Project Nightjar", "name"],
      ],
    ],
  },
  {
    // A document-level ACL inside a readable source.
    id: "handbook/severance.md",
    source: "handbook",
    title: "Severance",
    acl: ["hr"],
    paragraphs: ["Dana Smith handles Project Nightjar severance cases."],
    mentions: [
      [
        ["Dana Smith", "name"],
        ["Project Nightjar", "name"],
      ],
    ],
  },
  {
    id: "services/quillbook.md",
    source: "handbook",
    tenant: GLOBEX,
    title: "Quillbook",
    paragraphs: ["Quillbook calls lantern-relay at Globex."],
    mentions: [
      [
        ["Quillbook", "name"],
        ["lantern-relay", "code"],
        ["Globex", "name"],
      ],
    ],
  },
];

export async function seedGraph(store: StoreV1): Promise<void> {
  await store.putSource({ name: "handbook", tenant: ACME, kind: "documents", description: "Handbook", acl: [] });
  await store.putSource({ name: "api_docs", tenant: ACME, kind: "documents", description: "API docs", acl: [] });
  await store.putSource({ name: "salaries", tenant: ACME, kind: "documents", description: "Pay", acl: ["hr"] });
  await store.putSource({ name: "handbook", tenant: GLOBEX, kind: "documents", description: "Globex", acl: [] });
  await store.writeDocuments(GRAPH_DOCS.map(graphWrite));
}

export function runGraphSuite(name: string, open: OpenStore): void {
  describe(`entity graph suite: ${name}`, () => {
    let store: StoreV1;
    let graph: GraphStoreV1;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      const found = graphOf(store);
      if (!found) throw new Error(`${name} has no entity graph (store.graph)`);
      graph = found;
      await seedGraph(store);
    });

    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    const find = (value: string, principal: Principal, type?: "ip" | "email" | "name") =>
      graph.findEntities({ value, principal, k: 5, ...(type ? { type } : {}) });
    const keys = async (value: string, principal: Principal) =>
      (await find(value, principal)).entities.map((e) => e.key);

    describe("findEntities", () => {
      it("matches keys case- and space-insensitively, exact first, with the defining document's chunk first", async () => {
        const found = await find("LANTERN-Relay", alice);
        expect(found.entities[0]).toMatchObject({ key: "lantern-relay", mentions: 3, documents: 2 });
        expect(found.passages[0]).toMatchObject({ id: "services/lantern-relay.md::0", score: 1 });
        expect(found.passages[0]?.text).toContain("belongs to the Harbor Crew");
        expect(await keys("harbor crew", alice)).toContain("harbor crew");
      });

      it("finds partial matches after exact ones, and filters by mention type", async () => {
        expect(await keys("harbor", alice)).toEqual(expect.arrayContaining(["harbor crew", "harbor-pager@acme.io"]));
        expect((await find("10.0.0.5", alice, "ip")).entities.map((e) => e.type)).toEqual(["ip"]);
        expect((await find("10.0.0.5", alice, "email")).entities).toEqual([]);
        const titled = await graph.findEntities({
          value: "lantern-relay",
          type: "title",
          principal: alice,
          k: 3,
        });
        expect(titled.entities[0]).toMatchObject({ key: "lantern-relay", type: "title", mentions: 2 });
        expect(new Set(titled.passages.map((p) => p.docId))).toEqual(new Set(["services/lantern-relay.md"]));
        expect((await find("lantern-relay", alice)).entities[0]?.type).toBe("code");
      });

      it("shows nothing from documents or sources the principal may not read", async () => {
        expect(await find("Dana Smith", alice)).toEqual({ entities: [], passages: [] });
        expect(await find("Nightjar", alice)).toEqual({ entities: [], passages: [] });
        const odile = await find("Odile Brandt", alice);
        expect(odile.entities[0]).toMatchObject({ mentions: 1, documents: 1 });
        expect(odile.passages.map((p) => p.docId)).toEqual(["teams/harbor-crew.md"]);
        const dana = await find("Dana Smith", harriet);
        expect(dana.entities[0]).toMatchObject({ key: "dana smith", mentions: 2, documents: 2 });
      });

      it("keeps tenants apart", async () => {
        const theirs = await find("lantern-relay", olga);
        expect(theirs.entities[0]).toMatchObject({ mentions: 1, documents: 1 });
        expect(theirs.passages.map((p) => p.docId)).toEqual(["services/quillbook.md"]);
        expect(await keys("Harbor Crew", olga)).toEqual([]);
        expect(await keys("Quillbook", alice)).toEqual([]);
      });
    });

    describe("neighbours", () => {
      it("walks co-occurrence and defining-document edges, each with the chunks that show it", async () => {
        const one = await graph.neighbours({ entity: "/v1/lanterns", depth: 1, principal: alice });
        expect(one?.root.key).toBe("/v1/lanterns");
        const edge = one?.edges.find((e) => e.to === "lantern-relay");
        expect(edge).toMatchObject({ from: "/v1/lanterns", kind: "co-occurs", weight: 1, depth: 1 });
        expect(edge?.chunkIds).toEqual(["api/lanterns.md::0"]);
        expect(one?.edges.find((e) => e.to === "lanterns api")?.kind).toBe("defines");
        expect(one?.entities.map((e) => e.key)).not.toContain("harbor crew");
        const two = await graph.neighbours({ entity: "/v1/lanterns", depth: 2, principal: alice });
        expect(two?.entities.find((e) => e.key === "harbor crew")?.depth).toBe(2);
        expect(two?.passages.map((p) => p.id)).toContain("services/lantern-relay.md::0");
      });

      it("never crosses a chunk the principal may not read", async () => {
        const staff = await graph.neighbours({ entity: "Odile Brandt", depth: 3, principal: alice });
        const seen = staff?.entities.map((e) => e.key) ?? [];
        expect(seen).toContain("harbor crew");
        expect(seen).not.toContain("dana smith");
        expect(seen).not.toContain("project nightjar");
        expect(staff?.passages.map((p) => p.docId)).not.toContain("salaries/odile.md");
        const hr = await graph.neighbours({ entity: "Odile Brandt", depth: 1, principal: harriet });
        expect(hr?.edges.find((e) => e.to === "dana smith")?.chunkIds).toEqual(["salaries/odile.md::0"]);
        expect(await graph.neighbours({ entity: "Dana Smith", depth: 1, principal: alice })).toBeUndefined();
      });
    });

    describe("path", () => {
      it("finds the shortest path across documents with evidence for every edge", async () => {
        const path = await graph.path({ from: "/v1/lanterns", to: "Odile Brandt", maxDepth: 5, principal: alice });
        expect(path?.entities.map((e) => e.key)).toEqual([
          "/v1/lanterns",
          "lantern-relay",
          "harbor crew",
          "odile brandt",
        ]);
        expect(path?.edges.map((e) => [e.from, e.to])).toEqual([
          ["/v1/lanterns", "lantern-relay"],
          ["lantern-relay", "harbor crew"],
          ["harbor crew", "odile brandt"],
        ]);
        for (const edge of path?.edges ?? []) expect(edge.chunkIds.length).toBeGreaterThan(0);
        expect(path?.passages.map((p) => p.id)).toEqual(
          expect.arrayContaining(["api/lanterns.md::0", "services/lantern-relay.md::0", "teams/harbor-crew.md::0"]),
        );
      });

      it("respects maxDepth, ACL and tenant", async () => {
        expect(
          await graph.path({ from: "/v1/lanterns", to: "Odile Brandt", maxDepth: 2, principal: alice }),
        ).toBeUndefined();
        expect(
          await graph.path({ from: "/v1/lanterns", to: "Dana Smith", maxDepth: 5, principal: alice }),
        ).toBeUndefined();
        const hr = await graph.path({ from: "/v1/lanterns", to: "Dana Smith", maxDepth: 5, principal: harriet });
        expect(hr?.entities.at(-1)?.key).toBe("dana smith");
        expect(hr?.edges).toHaveLength(4);
        expect(
          await graph.path({ from: "Quillbook", to: "Harbor Crew", maxDepth: 5, principal: olga }),
        ).toBeUndefined();
        const self = await graph.path({ from: "OUT-7731", to: "out-7731", maxDepth: 3, principal: alice });
        expect(self).toMatchObject({ edges: [], entities: [{ key: "out-7731" }] });
      });
    });

    describe("mentions follow their documents", () => {
      it("replaces a document's mentions when it is rewritten and drops them when it is removed", async () => {
        const teams = GRAPH_DOCS.find((d) => d.id === "teams/harbor-crew.md") as GraphFixture;
        await store.writeDocuments([
          graphWrite({
            ...teams,
            paragraphs: ["Harbor Crew reports to Lee Park."],
            mentions: [
              [
                ["Harbor Crew", "name"],
                ["Lee Park", "name"],
              ],
            ],
          }),
        ]);
        expect(await keys("Odile Brandt", alice)).toEqual([]);
        expect(await keys("Lee Park", alice)).toEqual(["lee park"]);
        const path = await graph.path({ from: "/v1/lanterns", to: "Lee Park", maxDepth: 5, principal: alice });
        expect(path?.edges).toHaveLength(3);
        await store.removeDocuments(ACME, ["teams/harbor-crew.md"], { source: "handbook" });
        expect(await keys("Lee Park", alice)).toEqual([]);
        await store.removeSource(ACME, "api_docs");
        expect(await keys("/v1/lanterns", alice)).toEqual([]);
      });

      it("writes mentions in the document write's transaction: when they fail, the documents are not written", async () => {
        const good = graphWrite({
          id: "notes/a.md",
          source: "handbook",
          title: "Note A",
          paragraphs: ["Zed Quux met Ann Lee."],
          mentions: [[["Zed Quux", "name"]]],
        });
        const bad = graphWrite({
          id: "notes/b.md",
          source: "handbook",
          title: "Note B",
          paragraphs: ["A broken mention."],
          mentions: [[[null as unknown as string, "name"]]],
        });
        await expect(store.writeDocuments([good, bad])).rejects.toThrow();
        expect(await store.getChunks(["notes/a.md::0", "notes/b.md::0"], acmeOwner)).toEqual([]);
        expect(await keys("Zed Quux", alice)).toEqual([]);
        expect(await keys("Note A", alice)).toEqual([]);
      });

      it("stores documents written without mentions, with no graph for them", async () => {
        await store.writeDocuments([
          fixtureWrite({ id: "notes/plain.md", source: "handbook", title: "Plain", paragraphs: ["Kim Ode wrote it."] }),
        ]);
        expect(await keys("Kim Ode", alice)).toEqual([]);
        expect((await store.getChunks(["notes/plain.md::0"], alice)).length).toBe(1);
      });
    });
  });
}
