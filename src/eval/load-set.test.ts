import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidInputError } from "../spec/errors.js";
import { loadEvalSet, principalFor } from "./load-set.js";

const MINI = fileURLToPath(new URL("../../test/fixtures/eval-mini", import.meta.url));

const temps: string[] = [];
function copyMini(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "ferret-eval-")), "mini");
  temps.push(dir);
  cpSync(MINI, dir, { recursive: true });
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(join(dir, ".."), { recursive: true, force: true });
});

function expectInvalid(fn: () => unknown, context: Record<string, unknown>, message: RegExp) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).context).toMatchObject(context);
    expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error("expected an InvalidInputError");
}

describe("loadEvalSet", () => {
  it("reads sources and questions, the tenant and every role", () => {
    const set = loadEvalSet(MINI);
    expect(set.name).toBe("eval-mini");
    expect(set.sources.map((s) => s.name)).toEqual(["handbook", "orders"]);
    expect(set.questions).toHaveLength(6);
    expect(set.questions[0]!.sub_questions).toEqual(["What is the refund request timeout?"]);
    expect(set.tenant).toBe("mini");
    expect(set.allRoles).toEqual(["admin", "finance"]);
    expect(loadEvalSet({ dir: MINI }).questions[2]!.principal?.user).toBe("fin");
  });

  it("gives questions without a principal a user of the set's tenant holding every role", () => {
    const set = loadEvalSet(MINI);
    expect(principalFor(set, set.questions[0]!)).toEqual({ tenant: "mini", user: "eval", roles: ["admin", "finance"] });
    expect(principalFor(set, set.questions[3]!).roles).toEqual(["engineering"]);
  });

  it("uses the default tenant where no question names a principal", () => {
    const dir = copyMini();
    const lines = readFileSync(join(dir, "questions.jsonl"), "utf8").split("\n").filter(Boolean);
    const stripped = lines.map((l) => {
      const { principal: _p, ...rest } = JSON.parse(l);
      return JSON.stringify(rest);
    });
    writeFileSync(join(dir, "questions.jsonl"), stripped.join("\n"));
    expect(loadEvalSet(dir).tenant).toBe("default");
  });

  it("names file, line and field of an invalid question", () => {
    const dir = copyMini();
    const lines = readFileSync(join(dir, "questions.jsonl"), "utf8").split("\n");
    lines[1] = lines[1]!.replace('"min_hops": 1', '"min_hops": "one"');
    writeFileSync(join(dir, "questions.jsonl"), lines.join("\n"));
    expectInvalid(
      () => loadEvalSet(dir),
      { file: "questions.jsonl", line: 2, field: "min_hops" },
      /questions\.jsonl:2/,
    );
  });

  it("rejects misspelt fields, unknown gold tools and mixed tenants", () => {
    const dir = copyMini();
    const path = join(dir, "questions.jsonl");
    const original = readFileSync(path, "utf8");
    writeFileSync(
      path,
      original.replace('"gold_sources": ["docs/refunds.md"], "gold_tools"', '"gold_source": [], "gold_tools"'),
    );
    expectInvalid(() => loadEvalSet(dir), { line: 1 }, /questions\.jsonl:1/);
    writeFileSync(path, original.replace('"gold_tools": ["handbook"]', '"gold_tools": ["wiki"]'));
    expectInvalid(() => loadEvalSet(dir), { line: 1, field: "gold_tools" }, /"wiki" is not a source/);
    writeFileSync(path, original.replace('"tenant": "mini", "user": "eng"', '"tenant": "other", "user": "eng"'));
    expectInvalid(() => loadEvalSet(dir), { field: "principal.tenant" }, /more than one tenant/);
  });

  it("names sources.json problems", () => {
    const dir = copyMini();
    const path = join(dir, "sources.json");
    writeFileSync(path, readFileSync(path, "utf8").replace('"kind": "table"', '"kind": "sheet"'));
    expectInvalid(() => loadEvalSet(dir), { file: "sources.json", field: "1.kind" }, /sources\.json/);
    writeFileSync(path, '[{"name": "handbook", "kind": "documents", "path": "nope", "description": "x"}]');
    expectInvalid(() => loadEvalSet(dir), { field: "path" }, /does not exist/);
  });
});
