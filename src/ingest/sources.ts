import { readFile, realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve, sep, win32 } from "node:path";
import { InvalidInputError } from "../spec/errors.js";
import type { SourceKind } from "../spec/source.js";
import { parseAcl } from "./fields.js";

/** One source to ingest: what to register, where its files are, and what its ids are relative to. */
export interface SourcePlan {
  name: string;
  kind: SourceKind;
  description: string;
  acl: string[];
  /** As written in sources.json or given by the caller: recorded on the source. */
  path: string;
  /** Absolute path of the folder or file. */
  absPath: string;
  /** Absolute folder that document ids are relative to. */
  idRoot: string;
}

const NAME = /^[a-z][a-z0-9_]*$/;
const KINDS: SourceKind[] = ["documents", "table", "jsonl"];

/** A folder or file name as a lower_snake_case source name (`Product Docs` -> `product_docs`). */
export function sourceName(raw: string): string {
  const snake = raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (snake === "") return "documents";
  return /^[a-z]/.test(snake) ? snake : `s_${snake}`;
}

/** 1-based line of each top-level array element's opening brace, for error messages. */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n") line++;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") {
      if (depth === 1) lines.push(line);
      depth++;
    } else if (ch === "]" || ch === "}") depth--;
  }
  return lines;
}

/** Reads and validates an evaluation set's `sources.json` (shared FORMAT.md). */
export async function readSourcesJson(options: { dir: string }): Promise<SourcePlan[]> {
  const file = "sources.json";
  const text = await readFile(join(options.dir, file), "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const pos = /position (\d+)/.exec((cause as Error).message);
    const line = pos ? text.slice(0, Number(pos[1])).split("\n").length : undefined;
    throw new InvalidInputError(
      `${file}${line ? `, line ${line}` : ""}: invalid JSON: ${(cause as Error).message}`,
      { file, line },
      cause,
    );
  }
  if (!Array.isArray(value))
    throw new InvalidInputError(`${file}: expected a JSON array of sources`, { file, line: 1 });
  const lines = elementLines(text);
  const names = new Set<string>();
  const plans = value.map((entry, i): SourcePlan => {
    const line = lines[i];
    const fail = (field: string, message: string) =>
      new InvalidInputError(`${file}${line ? `, line ${line}` : ""}, source ${i + 1}, field "${field}": ${message}`, {
        file,
        line,
        field,
      });
    if (entry === null || typeof entry !== "object" || Array.isArray(entry))
      throw fail("(entry)", "expected an object");
    const { name, kind, path, description, acl } = entry as Record<string, unknown>;
    if (typeof name !== "string" || !NAME.test(name))
      throw fail("name", `must be lower_snake_case, got ${JSON.stringify(name)}`);
    if (names.has(name)) throw fail("name", `duplicate source name "${name}"`);
    names.add(name);
    if (typeof kind !== "string" || !KINDS.includes(kind as SourceKind))
      throw fail("kind", `must be one of ${KINDS.join(", ")}, got ${JSON.stringify(kind)}`);
    if (typeof path !== "string" || path.trim() === "") throw fail("path", "must be a relative path");
    if (isAbsolute(path) || win32.isAbsolute(path) || path.split(/[\\/]/).includes(".."))
      throw fail("path", `must stay inside the set folder (a relative path without ".."), got "${path}"`);
    if (description !== undefined && typeof description !== "string") throw fail("description", "must be a string");
    if (acl !== undefined && !Array.isArray(acl) && typeof acl !== "string")
      throw fail("acl", "must be a list of roles");
    return {
      name,
      kind: kind as SourceKind,
      description: description ?? "",
      acl: parseAcl(acl),
      path,
      absPath: resolve(options.dir, path),
      idRoot: resolve(options.dir),
    };
  });
  await checkInsideSet({ dir: options.dir, plans, lines });
  return plans;
}

/**
 * Refuses a source whose real path (symbolic links resolved) leaves the set folder's real path, such as
 * a source folder that is a link to elsewhere. A path that does not exist is left for ingest to report.
 */
async function checkInsideSet(options: { dir: string; plans: SourcePlan[]; lines: number[] }): Promise<void> {
  const root = await realpath(options.dir);
  for (const [i, plan] of options.plans.entries()) {
    const real = await realpath(plan.absPath).catch(() => undefined);
    if (real === undefined || real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) continue;
    const line = options.lines[i];
    throw new InvalidInputError(
      `sources.json${line ? `, line ${line}` : ""}, source ${i + 1}, field "path": must stay inside the set folder, but "${plan.path}" is a symbolic link to ${real}`,
      { file: "sources.json", line, field: "path" },
    );
  }
}

/**
 * What a path holds: an evaluation-set folder (with `sources.json`), a plain folder (one `documents`
 * source, ids relative to it), or a single file (`.csv` a table, `.jsonl` lines, anything else one document).
 */
export async function planSources(options: {
  path: string;
  source?: string;
  description?: string;
  acl?: string[];
}): Promise<SourcePlan[]> {
  const absPath = resolve(options.path);
  const info = await stat(absPath).catch((cause: unknown) => {
    throw new InvalidInputError(`${options.path}: no such file or folder`, { file: options.path }, cause);
  });
  if (options.source !== undefined && !NAME.test(options.source)) {
    throw new InvalidInputError(`source name must be lower_snake_case, got "${options.source}"`, { field: "source" });
  }
  if (info.isDirectory()) {
    const hasSet = await stat(join(absPath, "sources.json")).then(
      (s) => s.isFile(),
      () => false,
    );
    if (hasSet) {
      const plans = await readSourcesJson({ dir: absPath });
      if (options.source === undefined) return plans;
      const chosen = plans.filter((p) => p.name === options.source);
      if (chosen.length === 0) {
        throw new InvalidInputError(
          `sources.json has no source "${options.source}" (has ${plans.map((p) => p.name).join(", ")})`,
          { file: "sources.json", field: "name" },
        );
      }
      return chosen;
    }
  }
  const kind: SourceKind = info.isDirectory()
    ? "documents"
    : /\.csv$/i.test(absPath)
      ? "table"
      : /\.(jsonl|ndjson)$/i.test(absPath)
        ? "jsonl"
        : "documents";
  return [
    {
      name:
        options.source ??
        sourceName(info.isDirectory() ? basename(absPath) : basename(absPath).replace(/\.[^.]+$/, "")),
      kind,
      description: options.description ?? "",
      acl: options.acl ?? [],
      path: options.path,
      absPath,
      idRoot: info.isDirectory() ? absPath : dirname(absPath),
    },
  ];
}
