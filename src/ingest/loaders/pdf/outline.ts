/**
 * The PDF outline (bookmarks) as headings: each entry resolved to its page and vertical position, then matched
 * to the line on that page that carries its title. The walk is iterative and capped, so a hostile outline
 * (deep, huge or cyclic through named destinations) costs bounded work.
 */
import type { Line } from "./lines.js";

/** What the loader needs from a pdfjs document to read its outline. */
export interface OutlineSource {
  getOutline(): Promise<readonly OutlineNode[] | null>;
  getDestination(id: string): Promise<unknown[] | null>;
  getPageIndex(ref: { num: number; gen: number }): Promise<number>;
}

export interface OutlineNode {
  title?: unknown;
  dest?: unknown;
  items?: readonly OutlineNode[];
}

export interface OutlineEntry {
  title: string;
  /** 1 for a top-level entry. */
  level: number;
  /** 0-based page index. */
  page: number;
  /** Top of the destination in user space, when the destination gives one. */
  top?: number;
}

export const MAX_OUTLINE_ENTRIES = 5000;
const MAX_LEVEL = 6;
const MAX_TITLE_CHARS = 300;
/** Lines tried per entry, from its destination on: bounds the matching on a hostile page. */
const MAX_TRIES = 400;

async function resolve(source: OutlineSource, dest: unknown): Promise<{ page: number; top?: number } | undefined> {
  const explicit = typeof dest === "string" ? await source.getDestination(dest) : dest;
  if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
  const [target, mode] = explicit as [unknown, { name?: unknown } | undefined];
  let page: number;
  if (typeof target === "number") page = target;
  else if (target && typeof target === "object" && "num" in target && "gen" in target)
    page = await source.getPageIndex(target as { num: number; gen: number });
  else return undefined;
  const name = mode && typeof mode === "object" ? mode.name : undefined;
  const raw = name === "XYZ" ? explicit[3] : name === "FitH" || name === "FitBH" ? explicit[2] : undefined;
  return typeof raw === "number" && Number.isFinite(raw) ? { page, top: raw } : { page };
}

/** Outline entries in document order, with their pages; entries that do not resolve are left out. */
export async function outlineEntries(source: OutlineSource, numPages: number): Promise<OutlineEntry[]> {
  const roots = await source.getOutline();
  if (!roots) return [];
  const out: OutlineEntry[] = [];
  const stack: { node: OutlineNode; level: number }[] = [...roots].reverse().map((node) => ({ node, level: 1 }));
  let visited = 0;
  while (stack.length > 0 && visited < MAX_OUTLINE_ENTRIES) {
    const { node, level } = stack.pop() as { node: OutlineNode; level: number };
    visited++;
    const title =
      typeof node.title === "string" ? node.title.slice(0, MAX_TITLE_CHARS).replace(/\s+/g, " ").trim() : "";
    const at = title ? await resolve(source, node.dest).catch(() => undefined) : undefined;
    if (at && Number.isInteger(at.page) && at.page >= 0 && at.page < numPages)
      out.push({ title, level: Math.min(level, MAX_LEVEL), ...at });
    const children = Array.isArray(node.items) ? node.items : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i] as OutlineNode, level: level + 1 });
  }
  return out;
}

/** Letters and digits only, lower-cased: how titles and lines are compared. */
export function compact(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

export interface OutlineMatch {
  /** The heading spans `lines[start..end)`; when `start === end` it is inserted before `lines[start]`. */
  start: number;
  end: number;
  entry: OutlineEntry;
  /** The heading as printed ("2.1 ASN.1 syntax" for the entry "ASN.1 syntax"), else the entry's title. */
  text: string;
}

/** A section number before a printed heading: "2.1", "A.1", "IV.", "12)". */
const NUMBERING = /^\s*(?:(?:\d{1,3}|[A-Z])(?:\.\d{1,3})*[.)]?|[IVXLC]{1,6}[.)])\s+/;

/**
 * Places a page's outline entries: each at the run of free lines (outside tables) whose text is its title,
 * perhaps after a section number, searched from the destination's position down and then over the whole
 * page; an entry whose title is not printed is inserted where its destination points.
 */
export function matchOutline(
  lines: readonly Line[],
  free: (i: number) => boolean,
  entries: OutlineEntry[],
): OutlineMatch[] {
  const out: OutlineMatch[] = [];
  const taken = new Set<number>();
  const keys = lines.map((l) => compact(l.text));
  const unnumbered = lines.map((l) => (NUMBERING.test(l.text) ? compact(l.text.replace(NUMBERING, "")) : undefined));
  // Each entry's anchor: the first line at or below its destination's top, found in one sweep down the page.
  const anchors = new Map<OutlineEntry, number>();
  let sweep = 0;
  for (const entry of [...entries].sort(
    (a, b) => (b.top ?? Number.POSITIVE_INFINITY) - (a.top ?? Number.POSITIVE_INFINITY),
  )) {
    if (entry.top === undefined) {
      anchors.set(entry, 0);
      continue;
    }
    const top = entry.top;
    while (sweep < lines.length && (lines[sweep] as Line).y > top + 0.25 * (lines[sweep] as Line).size) sweep++;
    anchors.set(entry, sweep);
  }
  const runAt = (i: number, title: string, first: string | undefined): number | undefined => {
    if (first === undefined) return undefined;
    let acc = "";
    for (let j = i; j < lines.length && j < i + 4; j++) {
      if (!free(j) || taken.has(j)) return undefined;
      acc += j === i ? first : keys[j];
      if (acc === title) return j + 1;
      if (!title.startsWith(acc)) return undefined;
    }
    return undefined;
  };
  for (const entry of entries) {
    const title = compact(entry.title);
    const anchor = anchors.get(entry) ?? 0;
    let found: [number, number] | undefined;
    if (title !== "") {
      for (let k = 0; k < Math.min(lines.length, MAX_TRIES); k++) {
        const i = (anchor + k) % lines.length;
        const end = runAt(i, title, keys[i]) ?? runAt(i, title, unnumbered[i]);
        if (end !== undefined) {
          found = [i, end];
          break;
        }
      }
    }
    if (found) {
      for (let j = found[0]; j < found[1]; j++) taken.add(j);
      const text = lines
        .slice(found[0], found[1])
        .map((l) => l.text)
        .join(" ");
      out.push({ start: found[0], end: found[1], entry, text });
    } else out.push({ start: anchor, end: anchor, entry, text: entry.title });
  }
  return out.sort((a, b) => a.start - b.start);
}
