import { decodeText } from "../decode.js";
import type { LoadedDocument, Loader } from "../types.js";

/** Extensions of brace languages (blocks by `{ }`) and of indentation languages (blocks by indent). */
export const BRACE_EXTENSIONS = [
  "ts",
  "tsx",
  "mts",
  "cts",
  "js",
  "jsx",
  "mjs",
  "cjs",
  "go",
  "java",
  "rs",
  "c",
  "h",
  "cc",
  "cpp",
  "hpp",
  "cs",
  "kt",
  "swift",
  "php",
  "scala",
];
export const INDENT_EXTENSIONS = ["py", "pyi"];

/** A line that opens a named declaration, and the name it declares. */
const DECLARATION =
  /^\s*(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:public\s+|private\s+|protected\s+|internal\s+)?(?:static\s+|abstract\s+|final\s+|async\s+|unsafe\s+|open\s+|data\s+|sealed\s+)*(?:function\*?|class|interface|enum|struct|trait|impl(?:<[^>]*>)?|type|fn|func|def|object|record|namespace|module|const|let|var)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)/;

/** A function, class or other top-level unit: its symbol and 1-based inclusive line range. */
export interface CodeUnit {
  symbol: string;
  startLine: number;
  endLine: number;
}

/**
 * Block depth at the start of each line, for brace languages: one pass over the characters, skipping
 * strings, template literals and comments (approximately: regex literals are not recognised). Linear.
 */
function braceDepths(lines: string[]): number[] {
  const depths: number[] = [];
  let depth = 0;
  let block = false;
  let quote = "";
  for (const line of lines) {
    depths.push(depth);
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (block) {
        if (ch === "*" && line[i + 1] === "/") {
          block = false;
          i++;
        }
      } else if (quote !== "") {
        if (ch === "\\") i++;
        else if (ch === quote) quote = "";
      } else if (ch === "/" && line[i + 1] === "/") break;
      else if (ch === "/" && line[i + 1] === "*") {
        block = true;
        i++;
      } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
      else if (ch === "{") depth++;
      else if (ch === "}") depth = Math.max(0, depth - 1);
    }
    if (quote !== "`") quote = "";
  }
  return depths;
}

/** Indentation (in columns, a tab as 4) of each line; blank lines take the next non-blank line's. */
function indentDepths(lines: string[]): number[] {
  const out = new Array<number>(lines.length).fill(0);
  let next = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (line.trim() === "") out[i] = next;
    else {
      const lead = /^[ \t]*/.exec(line)?.[0] ?? "";
      next = lead.replaceAll("\t", "    ").length;
      out[i] = next;
    }
  }
  return out;
}

/**
 * Top-level units of a source file: each declaration at depth 0 (a function, class, interface ...) from
 * its leading comments or decorators to the line before the next unit; lines before the first one
 * (imports, a module comment) are the unit `(module)`. Linear in the text.
 */
export function codeUnits(text: string, style: "brace" | "indent"): CodeUnit[] {
  const lines = text.split("\n");
  const depths = style === "brace" ? braceDepths(lines) : indentDepths(lines);
  const starts: { line: number; symbol: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (depths[i] !== 0) continue;
    const match = DECLARATION.exec(lines[i] as string);
    if (!match?.[1]) continue;
    // Leading comments and decorators belong to the declaration below them.
    let start = i;
    while (start > 0 && /^\s*(\/\/|\/\*|\*|#|@)/.test(lines[start - 1] as string) && depths[start - 1] === 0) start--;
    const previous = starts[starts.length - 1];
    if (previous && start <= previous.line) start = i;
    starts.push({ line: start, symbol: match[1] });
  }
  const units: CodeUnit[] = [];
  if ((starts[0]?.line ?? lines.length) > 0)
    units.push({ symbol: "(module)", startLine: 1, endLine: starts[0]?.line ?? lines.length });
  starts.forEach((s, k) => {
    let end = (starts[k + 1]?.line ?? lines.length) - 1;
    while (end > s.line && (lines[end] as string).trim() === "") end--;
    units.push({ symbol: s.symbol, startLine: s.line + 1, endLine: end + 1 });
  });
  return units.filter((u) => lines.slice(u.startLine - 1, u.endLine).some((l) => l.trim() !== ""));
}

/**
 * Source code by extension: one document per top-level function, class or other declaration
 * (`<path>#<symbol>`, `#<symbol>~2` for a repeated name), titled `path symbol (lines 10-42)`, with
 * `metadata.locator` `lines 10-42`, so a citation names the file, the symbol and the lines.
 * A language-aware splitter (brace depth or indentation per line), not a parser: linear in the file.
 */
export const loadCode: Loader = async ({ bytes, relPath }) => {
  const { text, warnings } = decodeText({ bytes });
  const ext = relPath.slice(relPath.lastIndexOf(".") + 1).toLowerCase();
  const style = INDENT_EXTENSIONS.includes(ext) ? "indent" : "brace";
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const seen = new Map<string, number>();
  const docs: LoadedDocument[] = codeUnits(lines.join("\n"), style).map((unit) => {
    const count = (seen.get(unit.symbol) ?? 0) + 1;
    seen.set(unit.symbol, count);
    const key = count === 1 ? unit.symbol : `${unit.symbol}~${count}`;
    const locator = `lines ${unit.startLine}-${unit.endLine}`;
    return {
      id: `${relPath}#${key}`,
      title: `${relPath} ${unit.symbol} (${locator})`,
      text: lines.slice(unit.startLine - 1, unit.endLine).join("\n"),
      acl: [],
      metadata: { language: ext, symbol: unit.symbol, startLine: unit.startLine, endLine: unit.endLine, locator },
    };
  });
  return { docs, warnings };
};
