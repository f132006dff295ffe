/**
 * What `ferret init` proposes to ingest: each folder under the project that holds documents, each table file
 * (.csv, .jsonl) at its top, or the folder itself when its documents lie at the top. The walk is bounded (depth,
 * entries read) so a huge tree costs a fixed amount, and skips hidden folders, dependencies and build output.
 */
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { SUPPORTED_EXTENSIONS, sourceName } from "../ingest/index.js";

export interface ProposedSource {
  /** Relative to the project folder (`.` for the folder itself). */
  path: string;
  name: string;
  description: string;
  kind: "documents" | "table";
  files: number;
}

const SKIP = new Set(["node_modules", "dist", "build", "out", "coverage", "target", "vendor", "eval-out"]);
const TABLES = new Set([".csv", ".jsonl", ".ndjson"]);
const DOCUMENTS = new Set(SUPPORTED_EXTENSIONS.map((e) => `.${e}`).filter((e) => !TABLES.has(e)));
const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 6;
const HEADING_BYTES = 4096;

/** A folder or file name as the source name the ingest would give it. */
function nameOf(path: string): string {
  return sourceName(basename(path).replace(/\.(csv|jsonl|ndjson)$/i, ""));
}

/** The first Markdown heading or first non-empty line of a file (read from its first 4 KB only). */
function firstLine(file: string): string | undefined {
  const buffer = Buffer.alloc(HEADING_BYTES);
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const text = buffer.subarray(0, readSync(fd, buffer, 0, HEADING_BYTES, 0)).toString("utf8");
    const lines = text.split(/\r?\n/).map((l) => l.trim());
    const heading = lines.find((l) => /^#{1,3}\s+\S/.test(l));
    const line = heading?.replace(/^#+\s+/, "") ?? lines.find((l) => l.length > 0 && !l.startsWith("---"));
    return line?.slice(0, 80);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Document files under `dir` (bounded walk). */
function documentsUnder(dir: string, budget: { left: number }, depth = 0): string[] {
  if (depth > MAX_DEPTH || budget.left <= 0) return [];
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (--budget.left <= 0) break;
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name)) found.push(...documentsUnder(path, budget, depth + 1));
    else if (entry.isFile() && DOCUMENTS.has(extname(entry.name).toLowerCase())) found.push(path);
  }
  return found;
}

function describe(files: string[], what: string): string {
  const titles = [...new Set(files.slice(0, 12).flatMap((f) => firstLine(f) ?? []))].slice(0, 3);
  const count = `${files.length} ${files.length === 1 ? "document" : "documents"}`;
  return titles.length > 0 ? `${what}: ${count}, such as ${titles.join("; ")}` : `${what}: ${count}`;
}

/** Proposes sources for the project folder `root`. */
export function proposeSources(root: string): ProposedSource[] {
  const budget = { left: MAX_ENTRIES };
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return [];
  }
  const proposals: ProposedSource[] = [];
  const topDocuments: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = join(root, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name)) {
      const files = documentsUnder(path, budget);
      if (files.length > 0) {
        proposals.push({
          path: entry.name,
          name: nameOf(entry.name),
          description: describe(files, entry.name),
          kind: "documents",
          files: files.length,
        });
      }
    } else if (entry.isFile()) {
      const ext = extname(entry.name).toLowerCase();
      if (TABLES.has(ext)) {
        const header = firstLine(path);
        proposals.push({
          path: entry.name,
          name: nameOf(entry.name),
          description: `${entry.name}: one row per record${header && ext === ".csv" ? ` (columns ${header.slice(0, 60)})` : ""}`,
          kind: "table",
          files: 1,
        });
      } else if (DOCUMENTS.has(ext) && !/^(readme|changelog|license)/i.test(entry.name)) topDocuments.push(path);
    }
  }
  if (proposals.length === 0 && topDocuments.length > 0) {
    proposals.push({
      path: ".",
      name: nameOf(root),
      description: describe(topDocuments, basename(root)),
      kind: "documents",
      files: topDocuments.length,
    });
  }
  // Unique names: a later duplicate gets a suffix.
  const seen = new Map<string, number>();
  for (const p of proposals) {
    const n = (seen.get(p.name) ?? 0) + 1;
    seen.set(p.name, n);
    if (n > 1) p.name = `${p.name}_${n}`;
  }
  return proposals;
}
