/** HTML to structured plain text, shared by the HTML and DOCX loaders. */
import { type HTMLElement, type Node, NodeType } from "node-html-parser";

const DROP = "script, style, noscript, template, svg, head, title";
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
  "tbody",
  "thead",
  "tfoot",
  "ul",
]);

/** Flattens an element to text: headings become `#` lines, list items `- ` lines, table rows `a | b` lines. */
function render(node: Node, pre: boolean): string {
  if (node.nodeType === NodeType.TEXT_NODE) {
    const text = node.text;
    return pre ? text : text.replace(/\s+/g, " ");
  }
  if (node.nodeType !== NodeType.ELEMENT_NODE) return "";
  const el = node as HTMLElement;
  const tag = el.tagName?.toLowerCase() ?? "";
  const inner = () => el.childNodes.map((child) => render(child, pre || tag === "pre")).join("");
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) return `\n\n${"#".repeat(Number(heading[1]))} ${inner().replace(/\s+/g, " ").trim()}\n\n`;
  if (tag === "br") return "\n";
  if (tag === "li") return `\n- ${inner().trim()}\n`;
  if (tag === "tr")
    return `\n${el.childNodes
      .map((c) => render(c, pre).replace(/\s+/g, " ").trim())
      .filter(Boolean)
      .join(" | ")}\n`;
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

/** Text of a parsed page: scripts, styles and the head dropped, structure kept as Markdown-style lines. */
export function htmlText(root: HTMLElement): string {
  for (const el of root.querySelectorAll(DROP)) el.remove();
  return tidy(render(root.querySelector("body") ?? root, false));
}
