import { parse as parseToml, TomlError } from "smol-toml";
import { parseDocument, YAMLError } from "yaml";
import { InvalidInputError, LimitExceededError } from "../spec/errors.js";
import { plain } from "./fields.js";
import type { IngestLimits } from "./limits.js";

export type FrontMatterFormat = "yaml" | "toml" | "json";

export interface FrontMatter {
  /** Front-matter keys as plain data (strings, numbers, booleans, null, lists, maps); empty without front matter. */
  data: Record<string, unknown>;
  /** The text after the closing fence (or the whole text when there is no front matter). */
  body: string;
  format?: FrontMatterFormat;
  warnings: string[];
}

export interface FrontMatterOptions {
  /** Decoded text with LF line ends. */
  text: string;
  /** Named in errors. */
  relPath: string;
  limits: Pick<
    IngestLimits,
    "maxFrontMatterBytes" | "maxFrontMatterAliases" | "maxFrontMatterNodes" | "maxFrontMatterDepth"
  >;
}

/** The formats read, by the word after the opening `---`; anything else is refused, never evaluated. */
const ENGINES: Record<string, FrontMatterFormat> = {
  "": "yaml",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  json: "json",
};

/**
 * Splits Markdown front matter from its body and parses it as data only: YAML (`---`, `---yaml`),
 * TOML (`+++` or `---toml`) or JSON (`---json`). Nothing is ever evaluated: any other engine after the
 * dashes (`---js`, `---coffee`, ...) is an `InvalidInputError` naming the file and the engine. The
 * block is capped in bytes, YAML aliases in expansion, and the copied values in depth and count
 * (`LimitExceededError`, naming the cap). A block that is not a mapping is left in the text.
 */
export function splitFrontMatter(options: FrontMatterOptions): FrontMatter {
  const { text, relPath, limits } = options;
  const open = /^(---|\+\+\+)([^\n]*)\n/.exec(text);
  if (!open) return { data: {}, body: text, warnings: [] };
  const fence = open[1] as string;
  const rest = (open[2] ?? "").trim();
  // `----` and longer are Markdown thematic breaks, not fences; `+++` takes no engine word.
  if (rest.startsWith("-") || (fence === "+++" && rest !== "")) return { data: {}, body: text, warnings: [] };
  const close = fence === "---" ? /^(?:---|\.\.\.)[ \t]*$/m : /^\+\+\+[ \t]*$/m;
  const start = open[0].length;
  const found = close.exec(text.slice(start));
  if (!found) return { data: {}, body: text, warnings: [] };
  const block = text.slice(start, start + found.index);
  const afterClose = start + found.index + found[0].length;
  const body = text.slice(afterClose).replace(/^[ \t]*\n/, "");

  const engine = fence === "+++" ? "toml" : rest.toLowerCase();
  const format = ENGINES[engine];
  if (format === undefined) {
    const shown = JSON.stringify(engine.length > 40 ? `${engine.slice(0, 40)}…` : engine);
    throw new InvalidInputError(
      `${relPath}: front matter engine ${shown} is not supported: only YAML, TOML and JSON front matter is read, as data`,
      { file: relPath, field: "front matter", engine },
    );
  }
  const bytes = Buffer.byteLength(block, "utf8");
  if (bytes > limits.maxFrontMatterBytes) {
    throw new LimitExceededError(
      `${relPath}: front matter is ${bytes} bytes, over the ${limits.maxFrontMatterBytes}-byte cap (maxFrontMatterBytes)`,
      { file: relPath, limit: "maxFrontMatterBytes", cap: limits.maxFrontMatterBytes, value: bytes },
    );
  }
  const warnings: string[] = [];
  const parsed = parseBlock({ block, format, relPath, limits, warnings });
  if (parsed === null || parsed === undefined) return { data: {}, body, format, warnings };
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    warnings.push("front matter is not a mapping of keys; kept as text");
    return { data: {}, body: text, warnings };
  }
  const data = plain({
    value: parsed,
    maxDepth: limits.maxFrontMatterDepth,
    maxNodes: limits.maxFrontMatterNodes,
    file: relPath,
  }) as Record<string, unknown>;
  return { data, body, format, warnings };
}

function invalid(relPath: string, format: FrontMatterFormat, message: string, line?: number, cause?: unknown) {
  // +1: the opening fence is line 1 of the file, the block starts on line 2.
  const fileLine = line === undefined ? undefined : line + 1;
  return new InvalidInputError(
    `${relPath}: invalid ${format.toUpperCase()} front matter${fileLine === undefined ? "" : ` at line ${fileLine}`}: ${message.split("\n")[0]}`,
    { file: relPath, line: fileLine, field: "front matter" },
    cause,
  );
}

function parseBlock(options: {
  block: string;
  format: FrontMatterFormat;
  relPath: string;
  limits: FrontMatterOptions["limits"];
  warnings: string[];
}): unknown {
  const { block, format, relPath, limits, warnings } = options;
  if (format === "json") {
    try {
      return JSON.parse(block);
    } catch (cause) {
      throw invalid(relPath, format, (cause as Error).message, undefined, cause);
    }
  }
  if (format === "toml") {
    try {
      return parseToml(block, { maxDepth: limits.maxFrontMatterDepth, integersAsBigInt: "asNeeded" });
    } catch (cause) {
      const line = cause instanceof TomlError ? cause.line : undefined;
      throw invalid(relPath, format, (cause as Error).message, line, cause);
    }
  }
  // YAML 1.2 core schema: plain data types only; unknown tags (`!!js/function`) stay strings with a warning.
  const doc = parseDocument(block, { schema: "core", prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) throw invalid(relPath, format, first.message, first.linePos?.[0].line, first);
  for (const warning of doc.warnings) warnings.push(`front matter: ${warning.message.split("\n")[0]}`);
  try {
    return doc.toJS({ maxAliasCount: limits.maxFrontMatterAliases });
  } catch (cause) {
    if (cause instanceof ReferenceError && /excessive alias/i.test(cause.message)) {
      throw new LimitExceededError(
        `${relPath}: front matter YAML aliases expand past the cap (maxFrontMatterAliases = ${limits.maxFrontMatterAliases})`,
        { file: relPath, limit: "maxFrontMatterAliases", cap: limits.maxFrontMatterAliases },
        cause,
      );
    }
    const line = cause instanceof YAMLError ? cause.linePos?.[0].line : undefined;
    throw invalid(relPath, format, (cause as Error).message, line, cause);
  }
}
