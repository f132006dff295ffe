/**
 * Fixtures the shared store suites use: tenants, principals and a document builder (one chunk per paragraph).
 * Relies on nothing but the spec and the shared tokenizer.
 */
import { createHash } from "node:crypto";
import type { ChunkRecord, DocumentWrite } from "../spec/document.js";
import type { Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";
import { countTokens, searchText } from "../text/tokenize.js";

export const ACME = "acme";
export const GLOBEX = "globex";
/** Staff of acme, without the `hr` role. */
export const alice: Principal = { tenant: ACME, user: "alice", roles: ["staff"] };
/** Staff of acme with the `hr` role. */
export const harriet: Principal = { tenant: ACME, user: "harriet", roles: ["staff", "hr"] };
export const acmeOwner: Principal = { tenant: ACME, user: "local", roles: ["*"] };
/** Owner of another tenant: holds every role, but only there. */
export const olga: Principal = { tenant: GLOBEX, user: "olga", roles: ["*"] };

export interface FixtureDoc {
  id: string;
  source: string;
  title: string;
  /** Paragraphs, one chunk each. */
  paragraphs: string[];
  tenant?: string;
  acl?: string[];
  updatedAt?: string;
  section?: string[];
  /** One vector per paragraph. */
  vectors?: number[][];
}

/** A document write with one chunk per paragraph, offsets into the joined text, and index words. */
export function fixtureWrite(fixture: FixtureDoc): DocumentWrite {
  const text = fixture.paragraphs.join("\n\n");
  const tenant = fixture.tenant ?? ACME;
  const acl = fixture.acl ?? [];
  const chunks: ChunkRecord[] = [];
  let start = 0;
  fixture.paragraphs.forEach((paragraph, ordinal) => {
    const vector = fixture.vectors?.[ordinal];
    chunks.push({
      id: `${fixture.id}::${ordinal}`,
      docId: fixture.id,
      ordinal,
      text: paragraph,
      section: fixture.section ?? [],
      start,
      end: start + paragraph.length,
      tokens: countTokens(paragraph),
      searchText: searchText(paragraph),
      ...(vector ? { embedding: Float32Array.from(vector) } : {}),
    });
    start += paragraph.length + 2;
  });
  const contentHash = createHash("sha256")
    .update(JSON.stringify([text, fixture.title, fixture.updatedAt, acl]))
    .digest("hex");
  return {
    doc: {
      id: fixture.id,
      source: fixture.source,
      tenant,
      title: fixture.title,
      acl,
      contentHash,
      text,
      metadata: { fixture: true },
      ...(fixture.updatedAt ? { updatedAt: fixture.updatedAt } : {}),
    },
    chunks,
  };
}

export type OpenStore = () => Promise<{ store: StoreV1; cleanup: () => Promise<void> }>;
