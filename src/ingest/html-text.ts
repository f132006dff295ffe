/** HTML to structured plain text, shared by the HTML and DOCX loaders (DOM from linkedom). */
import { parseHTML } from "linkedom";

/** The little of the DOM the renderer and the extractor read (linkedom provides it). */
export interface DomNode {
  readonly nodeType: number;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
}

export interface DomElement extends DomNode {
  readonly localName: string;
  readonly children: ArrayLike<DomElement>;
  readonly parentElement: DomElement | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  closest(selectors: string): DomElement | null;
  remove(): void;
}

export interface DomDocument {
  readonly documentElement: DomElement;
  readonly body: DomElement | null;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  getElementsByTagName(name: string): ArrayLike<DomElement>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/** Never text: code, styling, embedded objects and form controls. */
export const NON_TEXT =
  "script, style, noscript, template, svg, math, head, title, iframe, object, embed, canvas, button, select, textarea";

/** Marks a heading that was an `<h1>` before an extractor demoted it (readability turns h1 into h2). */
export const H1_MARK = "data-ferret-h1";

/** Nesting below this renders as plain text: keeps the renderer's recursion and copying bounded. */
const MAX_DEPTH = 256;

const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "dd",
  "details",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "header",
  "hr",
  "main",
  "nav",
  "ol",
  "p",
  "section",
  "summary",
  "table",
  "ul",
]);
/** Inside these, only rows count: `table` is the block, its sections and rows are lines in it. */
const TABLE_PARTS = new Set(["table", "thead", "tbody", "tfoot"]);

/** Parses HTML (a page or a fragment) into a DOM. Linear in the input; no scripts run, nothing is fetched. */
export function parseHtmlDocument(html: string): DomDocument {
  const hasRoot = /^\s*(<!doctype[^>]*>\s*)?<html[\s>]/i.test(html.slice(0, 4096));
  return parseHTML(hasRoot ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`)
    .document as unknown as DomDocument;
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** Flattens an element to text: headings become `#` lines, list items `- ` lines, table rows consecutive `a | b` lines. */
function render(node: DomNode, pre: boolean, depth: number): string {
  if (node.nodeType === TEXT_NODE) {
    const text = node.textContent ?? "";
    return pre ? text : text.replace(/\s+/g, " ");
  }
  if (node.nodeType !== ELEMENT_NODE) return "";
  const el = node as DomElement;
  if (depth > MAX_DEPTH) return ` ${squash(el.textContent ?? "")} `;
  const tag = el.localName.toLowerCase();
  const inner = () => {
    let out = "";
    const children = el.childNodes;
    const rowsOnly = TABLE_PARTS.has(tag);
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as DomNode;
      // Whitespace between rows would put blank lines between them: a table stays one block of lines.
      if (rowsOnly && child.nodeType === TEXT_NODE && !/\S/.test(child.textContent ?? "")) continue;
      out += render(child, pre || tag === "pre", depth + 1);
    }
    return out;
  };
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) {
    const level = el.getAttribute(H1_MARK) === null ? Number(heading[1]) : 1;
    return `\n\n${"#".repeat(level)} ${squash(inner())}\n\n`;
  }
  if (tag === "br") return "\n";
  if (tag === "li") return `\n- ${inner().trim()}\n`;
  if (tag === "tr") {
    const cells: string[] = [];
    const children = el.childNodes;
    for (let i = 0; i < children.length; i++) {
      const cell = squash(render(children[i] as DomNode, pre, depth + 1));
      if (cell) cells.push(cell);
    }
    return cells.length > 0 ? `${cells.join(" | ")}\n` : "";
  }
  if (tag === "caption") return `${squash(inner())}\n`;
  if (tag === "pre") return `\n\n${inner()}\n\n`;
  if (BLOCK.has(tag)) return `\n\n${inner()}\n\n`;
  return inner();
}

/** Tidies rendered text: trims line ends, collapses runs of blank lines. */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, "").replace(/^[ \t]+(?=\S)/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Text of an element (a page's body, an extracted article, a DOCX conversion): scripts, styles and
 * other non-text elements are removed from it, structure is kept as Markdown-style lines.
 */
export function htmlText(root: DomElement): string {
  const dropped = root.querySelectorAll(NON_TEXT);
  for (let i = dropped.length - 1; i >= 0; i--) dropped[i]?.remove();
  return tidy(render(root, false, 0));
}
