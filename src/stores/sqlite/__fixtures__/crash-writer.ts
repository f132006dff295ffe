// Child process for the crash test: writes batches of documents forever, printing "committed <n>" after each.
// Each document's chunks carry its version tag, so a reader can tell whether a document was torn.
import { createHash } from "node:crypto";
import type { DocumentWrite } from "../../../spec/document.js";
import { searchText } from "../../../text/tokenize.js";
import { createSqliteStore } from "../index.js";

const path = process.argv[2];
if (!path) throw new Error("usage: crash-writer <db path>");
const store = await createSqliteStore({ path });
await store.putSource({ name: "crash", tenant: "default", kind: "documents", description: "crash test", acl: [] });

function write(docNo: number, version: number): DocumentWrite {
  const count = 1 + ((docNo + version) % 7);
  const paragraphs = Array.from({ length: count }, (_, i) => `doc ${docNo} version v${version} part ${i} lorem ipsum`);
  const text = paragraphs.join("\n\n");
  const id = `doc-${docNo}`;
  let start = 0;
  const chunks = paragraphs.map((paragraph, ordinal) => {
    const chunk = {
      id: `${id}::${ordinal}`,
      docId: id,
      ordinal,
      text: paragraph,
      section: [],
      start,
      end: start + paragraph.length,
      tokens: 8,
      searchText: searchText(paragraph),
      embedding: Float32Array.from({ length: 8 }, (_, d) => Math.sin(docNo + version + d + ordinal)),
    };
    start += paragraph.length + 2;
    return chunk;
  });
  const contentHash = createHash("sha256").update(text).digest("hex");
  return {
    doc: { id, source: "crash", tenant: "default", title: id, acl: [], contentHash, text, metadata: { version, count } },
    chunks,
  };
}

let version = Number(process.argv[3] ?? "0");
for (let n = 0; ; n++) {
  version++;
  const batch = Array.from({ length: 40 }, (_, i) => write((i * 7 + n) % 60, version));
  await store.writeDocuments(batch);
  if (n % 5 === 4) await store.removeDocuments("default", [`doc-${n % 60}`], { source: "crash" });
  process.stdout.write(`committed ${n}\n`);
}
