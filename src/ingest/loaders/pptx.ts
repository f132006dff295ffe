import { XMLParser } from "fast-xml-parser";
import { InvalidInputError } from "../../spec/errors.js";
import { titleFromPath } from "../fields.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import type { LoadedDocument, Loader } from "../types.js";
import { checkZip } from "../zip-guard.js";

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  processEntities: true,
  htmlEntities: false,
  trimValues: false,
});

const SLIDE = /^ppt\/slides\/slide(\d+)\.xml$/;
const WANTED =
  /^ppt\/(slides\/slide\d+\.xml|slides\/_rels\/slide\d+\.xml\.rels|notesSlides\/notesSlide\d+\.xml|presentation\.xml|_rels\/presentation\.xml\.rels)$/;

function parse(xml: Buffer | undefined, relPath: string, part: string): XmlNode[] {
  if (xml === undefined) return [];
  try {
    return parser.parse(xml.toString("utf8")) as XmlNode[];
  } catch (cause) {
    throw new InvalidInputError(
      `${relPath}: unreadable part ${part} (${(cause as Error).message})`,
      { file: relPath },
      cause,
    );
  }
}

const children = (node: XmlNode, key: string): XmlNode[] => (node[key] as XmlNode[] | undefined) ?? [];
const attrs = (node: XmlNode): Record<string, string> => (node[":@"] as Record<string, string> | undefined) ?? {};
const tagOf = (node: XmlNode) => Object.keys(node).find((k) => k !== ":@");

/** Each `a:p` paragraph's text (its `a:t` runs joined), in document order; iterative, so depth costs no stack. */
function paragraphs(nodes: XmlNode[]): string[] {
  const out: string[] = [];
  const stack: { node: XmlNode; para?: string[] }[] = nodes.map((node) => ({ node })).reverse();
  let current: string[] | undefined;
  const finished: string[][] = [];
  while (stack.length > 0) {
    const { node, para } = stack.pop() as { node: XmlNode; para?: string[] };
    const tag = tagOf(node);
    if (tag === undefined) continue;
    if (tag === "#text") {
      para?.push(String(node["#text"]));
      continue;
    }
    let into = para;
    if (tag === "a:p") {
      current = [];
      finished.push(current);
      into = current;
    }
    const kids = children(node, tag);
    const runText = tag === "a:t";
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i] as XmlNode;
      if (tagOf(kid) === "#text" && !runText) continue;
      stack.push({ node: kid, para: into });
    }
  }
  for (const p of finished) {
    const line = p.join("").replace(/\s+/g, " ").trim();
    if (line !== "") out.push(line);
  }
  return out;
}

/** The relationships of a `.rels` part: id -> target, and type suffix -> target. */
function relationships(nodes: XmlNode[]): { byId: Map<string, string>; byType: Map<string, string> } {
  const byId = new Map<string, string>();
  const byType = new Map<string, string>();
  for (const root of nodes)
    for (const rel of children(root, "Relationships")) {
      const a = attrs(rel);
      if (a.Id && a.Target) byId.set(a.Id, a.Target);
      if (a.Type && a.Target) byType.set(a.Type.slice(a.Type.lastIndexOf("/") + 1), a.Target);
    }
  return { byId, byType };
}

/** `../notesSlides/notesSlide2.xml` from `ppt/slides/` -> `ppt/notesSlides/notesSlide2.xml`. */
function resolvePart(from: string, target: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const piece of target.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== ".") parts.push(piece);
  }
  return parts.join("/");
}

/** Slide part names in the order the presentation shows them (falling back to their numbers). */
function slideOrder(parts: Map<string, Buffer>, relPath: string): string[] {
  const numbered = [...parts.keys()]
    .filter((n) => SLIDE.test(n))
    .sort((a, b) => Number(SLIDE.exec(a)?.[1]) - Number(SLIDE.exec(b)?.[1]));
  const rels = relationships(parse(parts.get("ppt/_rels/presentation.xml.rels"), relPath, "presentation.xml.rels"));
  const ordered: string[] = [];
  const stack = parse(parts.get("ppt/presentation.xml"), relPath, "presentation.xml");
  while (stack.length > 0) {
    const node = stack.shift() as XmlNode;
    const tag = tagOf(node);
    if (tag === undefined || tag === "#text") continue;
    if (tag === "p:sldId") {
      const target = rels.byId.get(attrs(node)["r:id"] ?? "");
      const part = target ? resolvePart("ppt/presentation.xml", target) : undefined;
      if (part && parts.has(part) && !ordered.includes(part)) ordered.push(part);
    } else stack.unshift(...children(node, tag));
  }
  return ordered.length === numbered.length ? ordered : numbered;
}

/**
 * PowerPoint decks (`.pptx`), read through the zip guard (parts inflated within the caps) and
 * fast-xml-parser: one document per slide, `<path>#slide-<n>` with n its position in the deck, holding the
 * slide's text and its speaker notes; the citation names the slide (`metadata.locator`: `slide 3`).
 */
export const loadPptx: Loader = async ({ bytes, relPath, limits }) => {
  const caps = limits ?? DEFAULT_INGEST_LIMITS;
  const parts = await checkZip({ bytes, relPath, kind: ".pptx file", limits: caps, keep: (n) => WANTED.test(n) });
  if (!parts.has("ppt/presentation.xml"))
    throw new InvalidInputError(`${relPath}: not a readable .pptx file (no ppt/presentation.xml part)`, {
      file: relPath,
    });
  const deck = titleFromPath(relPath);
  const docs: LoadedDocument[] = [];
  slideOrder(parts, relPath).forEach((part, i) => {
    const n = i + 1;
    const lines = paragraphs(parse(parts.get(part), relPath, part));
    const relsPart = part.replace(/slides\/(slide\d+\.xml)$/, "slides/_rels/$1.rels");
    const notesTarget = relationships(parse(parts.get(relsPart), relPath, relsPart)).byType.get("notesSlide");
    const notesPart = notesTarget ? resolvePart(part, notesTarget) : undefined;
    // A notes page repeats the slide number in a placeholder: lines of digits alone are not notes.
    const notes = notesPart
      ? paragraphs(parse(parts.get(notesPart), relPath, notesPart)).filter((l) => !/^\d+$/.test(l))
      : [];
    const text = [lines.join("\n"), notes.length > 0 ? `Speaker notes:\n${notes.join("\n")}` : ""]
      .filter(Boolean)
      .join("\n\n");
    docs.push({
      id: `${relPath}#slide-${n}`,
      title: `${deck}, slide ${n}${lines[0] ? `: ${lines[0]}` : ""}`,
      text,
      acl: [],
      metadata: { slide: n, locator: `slide ${n}`, notes: notes.length > 0 },
    });
  });
  return { docs, warnings: [] };
};
