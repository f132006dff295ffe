import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DocumentWrite } from "../../spec/document.js";
import { searchText } from "../../text/tokenize.js";

export interface DocSpec {
  id: string;
  source: string;
  title: string;
  /** Paragraphs; one starting with `# ` is a heading for the paragraphs after it. */
  paragraphs: string[];
  acl?: string[];
  tenant?: string;
  updatedAt?: string;
}

/** One chunk per paragraph, headings carried as the section path, offsets into the joined text. */
export function makeDoc(spec: DocSpec): DocumentWrite {
  const text = spec.paragraphs.join("\n\n");
  const chunks: DocumentWrite["chunks"] = [];
  let section: string[] = [];
  let start = 0;
  for (const paragraph of spec.paragraphs) {
    if (paragraph.startsWith("# ")) section = [paragraph.slice(2)];
    else {
      const ordinal = chunks.length;
      chunks.push({
        id: `${spec.id}::${ordinal}`,
        docId: spec.id,
        ordinal,
        text: paragraph,
        section,
        start,
        end: start + paragraph.length,
        tokens: paragraph.split(/\s+/).length,
        searchText: searchText(paragraph),
      });
    }
    start += paragraph.length + 2;
  }
  return {
    doc: {
      id: spec.id,
      source: spec.source,
      tenant: spec.tenant ?? "default",
      title: spec.title,
      acl: spec.acl ?? [],
      contentHash: `${spec.id}:${text.length}`,
      text,
      metadata: {},
      ...(spec.updatedAt ? { updatedAt: spec.updatedAt } : {}),
    },
    chunks,
  };
}

/** A temp directory removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "ferret-retrieval-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
