import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../../spec/principal.js";
import { fixtureWrite } from "../../testing/fixtures.js";
import { searchText } from "../../text/tokenize.js";
import { createSqliteStore, type SqliteStore } from "./index.js";
import { DDL_V1, SCHEMA_VERSION } from "./schema.js";

const owner: Principal = { tenant: "acme", user: "o", roles: ["*"] };
const staff: Principal = { tenant: "acme", user: "s", roles: ["staff"] };

/** The document index and graph tables as v1 stores had them (created by the code of that time). */
const V1_EXTRAS = `
CREATE VIRTUAL TABLE docs_fts USING fts5 (title, headings, opening, tokenize = 'porter unicode61 remove_diacritics 2');
CREATE TRIGGER docs_fts_forget AFTER DELETE ON documents BEGIN DELETE FROM docs_fts WHERE rowid = old.rowid; END;
CREATE TABLE graph_entities (
  id INTEGER PRIMARY KEY, tenant TEXT NOT NULL, key TEXT NOT NULL, type TEXT NOT NULL, text TEXT NOT NULL,
  UNIQUE (tenant, key)
);
CREATE TABLE graph_mentions (
  chunk_rowid INTEGER NOT NULL, entity_id INTEGER NOT NULL, type TEXT NOT NULL, role INTEGER NOT NULL,
  count INTEGER NOT NULL, PRIMARY KEY (chunk_rowid, entity_id)
) WITHOUT ROWID;
CREATE INDEX graph_mentions_by_entity ON graph_mentions (entity_id, chunk_rowid);
CREATE TRIGGER graph_forget_chunk AFTER DELETE ON chunks BEGIN
  DELETE FROM graph_mentions WHERE chunk_rowid = old.rowid;
END;
CREATE VIRTUAL TABLE vec_4 USING vec0 (embedding float[4] distance_metric=cosine, tenant text partition key);
`;

interface V1Doc {
  rowid: number;
  id: string;
  source: string;
  title: string;
  acl: string[];
  /** [chunk rowid, text, vector?] */
  chunks: [number, string, number[]?][];
}

const V1_DOCS: V1Doc[] = [
  {
    rowid: 7,
    id: "guide/refunds.md",
    source: "handbook",
    title: "Refunds",
    acl: [],
    chunks: [
      [40, "Refunds time out after 30 seconds at the Ledger gateway.", [1, 0, 0, 0]],
      [41, "Partial refunds need a reason code."],
    ],
  },
  {
    rowid: 9,
    id: "guide/salaries.md",
    source: "secret",
    title: "Salary bands",
    acl: [],
    chunks: [[90, "Engineer salary bands rise three percent.", [0, 1, 0, 0]]],
  },
  {
    rowid: 12,
    id: "tickets.csv#T-1",
    source: "tickets",
    title: "Gateway timeout",
    acl: [],
    chunks: [[120, "ticket_id: T-1\ntitle: Gateway timeout"]],
  },
];

/** A store as schema v1 left it: sources, documents, chunks, both keyword indexes, a vector, the graph, a table. */
function buildV1(path: string): void {
  const db = new Database(path);
  sqliteVec.load(db);
  db.pragma("journal_mode = WAL");
  db.exec(DDL_V1);
  db.exec(V1_EXTRAS);
  db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', '1')").run();
  const source = db.prepare(
    "INSERT INTO sources (tenant, name, kind, description, acl, path) VALUES (?, ?, ?, ?, ?, ?)",
  );
  source.run("acme", "handbook", "documents", "Handbook", "[]", "docs");
  source.run("acme", "secret", "documents", "HR only", '["hr"]', "secret");
  source.run("acme", "tickets", "table", "Tickets", "[]", "data/tickets.csv");
  for (const doc of V1_DOCS) {
    const text = doc.chunks.map(([, t]) => t).join("\n\n");
    db.prepare(
      `INSERT INTO documents (rowid, tenant, id, source, title, updated_at, acl, content_hash, text, metadata)
       VALUES (?, 'acme', ?, ?, ?, NULL, ?, ?, ?, '{}')`,
    ).run(doc.rowid, doc.id, doc.source, doc.title, JSON.stringify(doc.acl), `hash-${doc.id}`, text);
    db.prepare("INSERT INTO docs_fts (rowid, title, headings, opening) VALUES (?, ?, '', ?)").run(
      doc.rowid,
      searchText(doc.title),
      searchText(text),
    );
    let start = 0;
    doc.chunks.forEach(([rowid, chunk, vector], ordinal) => {
      db.prepare(
        `INSERT INTO chunks (rowid, tenant, id, doc_id, source, ordinal, text, section, start, "end", tokens,
           updated_at, acl, dims) VALUES (?, 'acme', ?, ?, ?, ?, ?, '[]', ?, ?, 5, NULL, ?, ?)`,
      ).run(
        rowid,
        `${doc.id}::${ordinal}`,
        doc.id,
        doc.source,
        ordinal,
        chunk,
        start,
        start + chunk.length,
        JSON.stringify(doc.acl),
        vector ? 4 : null,
      );
      db.prepare("INSERT INTO chunks_fts (rowid, title, section, body) VALUES (?, ?, '', ?)").run(
        rowid,
        searchText(doc.title),
        searchText(chunk),
      );
      if (vector) {
        db.prepare("INSERT INTO vec_4 (rowid, embedding, tenant) VALUES (?, ?, 'acme')").run(
          BigInt(rowid),
          Buffer.from(Float32Array.from(vector).buffer),
        );
      }
      start += chunk.length + 2;
    });
  }
  db.prepare(
    "INSERT INTO graph_entities (id, tenant, key, type, text) VALUES (3, 'acme', 'ledger', 'name', 'Ledger')",
  ).run();
  db.prepare(
    "INSERT INTO graph_mentions (chunk_rowid, entity_id, type, role, count) VALUES (40, 3, 'name', 0, 1)",
  ).run();
  db.exec(`CREATE TABLE "tbl__acme__tickets__v1" ("ticket_id" TEXT, "title" TEXT, "_id" TEXT);
    INSERT INTO "tbl__acme__tickets__v1" VALUES ('T-1', 'Gateway timeout', 'data/tickets.csv#T-1');`);
  const schema = {
    name: "tickets",
    primaryKey: "ticket_id",
    columns: [
      { name: "ticket_id", type: "TEXT" },
      { name: "title", type: "TEXT" },
    ],
  };
  db.prepare(
    `INSERT INTO runs (run_id, tenant, user, question, started_at, events, answer)
     VALUES ('run-v1', 'acme', 'o', 'How long?', '2026-01-01T00:00:00Z', '[{"type":"run-start"}]', NULL)`,
  ).run();
  db.prepare("INSERT INTO table_sources (tenant, source, sql_name, schema) VALUES ('acme', 'tickets', ?, ?)").run(
    "tbl__acme__tickets__v1",
    JSON.stringify(schema),
  );
  db.close();
}

/** Row counts and rowids that the migration must keep. */
function snapshot(path: string): Record<string, unknown> {
  const db = new Database(path, { readonly: true });
  sqliteVec.load(db);
  const all = (sql: string) => db.prepare(sql).all();
  const out = {
    documents: all("SELECT rowid, tenant, id, source, title FROM documents ORDER BY rowid"),
    chunks: all("SELECT rowid, id, doc_id, source, dims FROM chunks ORDER BY rowid"),
    chunksFts: all("SELECT rowid FROM chunks_fts ORDER BY rowid"),
    docsFts: all("SELECT rowid FROM docs_fts ORDER BY rowid"),
    vectors: all("SELECT rowid FROM vec_4 ORDER BY rowid"),
    mentions: all("SELECT chunk_rowid, entity_id FROM graph_mentions ORDER BY chunk_rowid"),
  };
  db.close();
  return out;
}

describe("schema migration v1 -> v2", () => {
  let dir: string;
  let path: string;
  let store: SqliteStore | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ferret-migrate-"));
    path = join(dir, "v1.db");
    buildV1(path);
  });

  afterEach(async () => {
    await store?.close();
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every row and rowid, and the store reads as before", async () => {
    const before = snapshot(path);
    store = await createSqliteStore({ path });
    await store.close();
    store = undefined;
    expect(snapshot(path)).toEqual(before);
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    expect(db.pragma("foreign_key_check")).toEqual([]);
    db.close();

    store = await createSqliteStore({ path });
    const sources = await store.listSources(owner);
    expect(sources.map((s) => [s.name, s.documents, s.chunks])).toEqual([
      ["handbook", 1, 2],
      ["secret", 1, 1],
      ["tickets", 1, 1],
    ]);
    expect(sources.find((s) => s.name === "tickets")?.tables?.map((t) => [t.name, t.file])).toEqual([
      ["tickets", "data/tickets.csv"],
    ]);
    const hits = await store.keywordSearch({ principal: owner, terms: ["refunds", "timeout"], k: 5 });
    expect(hits.map((h) => [h.id, h.source, h.title])).toContainEqual(["guide/refunds.md::0", "handbook", "Refunds"]);
    expect((await store.keywordSearch({ principal: staff, terms: ["salary"], k: 5 })).length).toBe(0);
    const near = await store.vectorSearch({ principal: owner, vector: Float32Array.from([1, 0, 0, 0]), k: 1 });
    expect(near.map((h) => h.id)).toEqual(["guide/refunds.md::0"]);
    const docs = await store.documentSearch({ principal: owner, terms: ["salary"], k: 5 });
    expect(docs.map((d) => d.docId)).toEqual(["guide/salaries.md"]);
    const ledger = await store.graph.findEntities({ value: "Ledger", principal: owner, k: 1 });
    expect(ledger.passages.map((p) => p.id)).toEqual(["guide/refunds.md::0"]);
    expect((await store.getDocument("guide/refunds.md", owner))?.title).toBe("Refunds");
    expect((await store.getChunks(["guide/refunds.md::1"], owner)).map((c) => c.text)).toEqual([
      "Partial refunds need a reason code.",
    ]);
    expect((await store.querySql("SELECT ticket_id, _id FROM tickets", owner)).rows).toEqual([
      { ticket_id: "T-1", _id: "data/tickets.csv#T-1" },
    ]);
    expect(await store.getRun("run-v1", owner)).toEqual({
      runId: "run-v1",
      tenant: "acme",
      user: "o",
      question: "How long?",
      startedAt: "2026-01-01T00:00:00Z",
      events: [{ type: "run-start" }],
    });
  });

  it("leaves a store that writes, removes and keeps ids per source", async () => {
    store = await createSqliteStore({ path });
    await store.removeDocuments("acme", ["guide/refunds.md"], { source: "handbook" });
    // The triggers that went with the old tables are back: index rows and mentions go with the document.
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT count(*) AS n FROM docs_fts").get()).toEqual({ n: 2 });
    expect(db.prepare("SELECT count(*) AS n FROM graph_mentions").get()).toEqual({ n: 0 });
    db.close();
    expect(await store.keywordSearch({ principal: owner, terms: ["refunds"], k: 5 })).toEqual([]);
    await store.writeDocuments([
      fixtureWrite({
        id: "guide/salaries.md",
        source: "handbook",
        tenant: "acme",
        title: "Public",
        paragraphs: ["Public pay scale."],
      }),
    ]);
    expect((await store.getDocument("guide/salaries.md", owner, { source: "secret" }))?.title).toBe("Salary bands");
    expect((await store.getDocument("guide/salaries.md", owner, { source: "handbook" }))?.title).toBe("Public");
    const { name } = await store.writeTable({
      tenant: "acme",
      source: "tickets",
      file: "data/tickets.csv",
      schema: { name: "tickets", primaryKey: "ticket_id", columns: [{ name: "ticket_id", type: "TEXT" }] },
      rows: [{ ticket_id: "T-2" }],
    });
    expect(name).toBe("tickets");
    expect((await store.querySql("SELECT _id FROM tickets", owner)).rows).toEqual([{ _id: "data/tickets.csv#T-2" }]);
  });
});
