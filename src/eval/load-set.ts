import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { z } from "zod";
import { InvalidInputError } from "../spec/errors.js";
import { DEFAULT_TENANT, type Principal } from "../spec/principal.js";
import { type EvalQuestion, type EvalSource, evalQuestionSchema, evalSourcesSchema } from "./schema.js";

/** An evaluation set read from its folder and validated. */
export interface LoadedSet {
  /** The folder's base name; thresholds are keyed by it. */
  name: string;
  dir: string;
  sources: EvalSource[];
  questions: EvalQuestion[];
  /** The tenant the set is ingested for (FORMAT.md "Tenant"). */
  tenant: string;
  /** Union of every source's `acl`, sorted. */
  allRoles: string[];
}

function fieldOf(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
}

function readJson(file: string, display: string): unknown {
  if (!existsSync(file)) throw new InvalidInputError(`${display} not found`, { file: display });
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new InvalidInputError(`${display} is not valid JSON: ${(cause as Error).message}`, { file: display }, cause);
  }
}

function loadSources(dir: string): EvalSource[] {
  const parsed = evalSourcesSchema.safeParse(readJson(join(dir, "sources.json"), "sources.json"));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = fieldOf(issue);
    throw new InvalidInputError(`sources.json: field "${field}": ${issue.message}`, { file: "sources.json", field });
  }
  const seen = new Set<string>();
  for (const source of parsed.data) {
    if (seen.has(source.name)) {
      throw new InvalidInputError(`sources.json: duplicate source name "${source.name}"`, {
        file: "sources.json",
        field: "name",
      });
    }
    seen.add(source.name);
    if (!existsSync(join(dir, source.path))) {
      throw new InvalidInputError(`sources.json: source "${source.name}" path "${source.path}" does not exist`, {
        file: "sources.json",
        field: "path",
      });
    }
  }
  return parsed.data;
}

function loadQuestions(dir: string, sourceNames: Set<string>): EvalQuestion[] {
  const file = "questions.jsonl";
  const path = join(dir, file);
  if (!existsSync(path)) throw new InvalidInputError(`${file} not found`, { file });
  const questions: EvalQuestion[] = [];
  const ids = new Set<string>();
  const lines = readFileSync(path, "utf8").split(/\r?\n/);
  lines.forEach((text, index) => {
    const line = index + 1;
    if (text.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (cause) {
      throw new InvalidInputError(`${file}:${line}: not valid JSON`, { file, line }, cause);
    }
    const parsed = evalQuestionSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = fieldOf(issue);
      throw new InvalidInputError(`${file}:${line}: field "${field}": ${issue.message}`, { file, line, field });
    }
    const q = parsed.data;
    if (ids.has(q.id)) {
      throw new InvalidInputError(`${file}:${line}: field "id": duplicate id "${q.id}"`, { file, line, field: "id" });
    }
    ids.add(q.id);
    const unknown = q.gold_tools.find((tool) => !sourceNames.has(tool));
    if (unknown !== undefined) {
      throw new InvalidInputError(`${file}:${line}: field "gold_tools": "${unknown}" is not a source in sources.json`, {
        file,
        line,
        field: "gold_tools",
      });
    }
    questions.push(q);
  });
  if (questions.length === 0) throw new InvalidInputError(`${file} holds no questions`, { file });
  return questions;
}

/** The tenant its principals name (all the same one), or the default tenant where none has a principal. */
function tenantOf(questions: EvalQuestion[]): string {
  const tenants = new Set(questions.flatMap((q) => (q.principal ? [q.principal.tenant] : [])));
  if (tenants.size > 1) {
    throw new InvalidInputError(`questions.jsonl: principals name more than one tenant: ${[...tenants].join(", ")}`, {
      file: "questions.jsonl",
      field: "principal.tenant",
    });
  }
  return [...tenants][0] ?? DEFAULT_TENANT;
}

/** Reads and validates an evaluation set folder (see the shared FORMAT.md). */
export function loadEvalSet(options: string | { dir: string }): LoadedSet {
  const dir = resolve(typeof options === "string" ? options : options.dir);
  const sources = loadSources(dir);
  const questions = loadQuestions(dir, new Set(sources.map((s) => s.name)));
  const allRoles = [...new Set(sources.flatMap((s) => s.acl ?? []))].sort();
  return { name: basename(dir), dir, sources, questions, tenant: tenantOf(questions), allRoles };
}

/** Who asks a question: its own principal, or a user of the set's tenant holding every role. */
export function principalFor(set: Pick<LoadedSet, "tenant" | "allRoles">, question: EvalQuestion): Principal {
  return question.principal ?? { tenant: set.tenant, user: "eval", roles: [...set.allRoles] };
}
