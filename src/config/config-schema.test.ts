import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configFileSchema, configJsonSchema } from "./config-schema.js";
import { SETTINGS } from "./resolve-config.js";

const SCHEMA_FILE = new URL("../../ferret.config.schema.json", import.meta.url);
const DOCS = new URL("../../docs/configuration.md", import.meta.url);

describe("ferret.config.json schema", () => {
  it("the committed JSON Schema is the one generated from the zod schema (UPDATE_SCHEMA=1 rewrites it)", () => {
    if (process.env.UPDATE_SCHEMA === "1")
      writeFileSync(SCHEMA_FILE, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    expect(JSON.parse(readFileSync(SCHEMA_FILE, "utf8"))).toEqual(configJsonSchema());
  });

  it("accepts a file with its $schema line and refuses unknown keys and wrong types, naming the field", () => {
    expect(
      configFileSchema.safeParse({ $schema: "./ferret.config.schema.json", model: "offline", ask: { maxSteps: 4 } })
        .success,
    ).toBe(true);
    const unknown = configFileSchema.safeParse({ modle: "offline" });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.message).toContain("modle");
    const wrong = configFileSchema.safeParse({ ask: { maxSteps: "five" } });
    expect(wrong.error?.issues[0]?.path).toEqual(["ask", "maxSteps"]);
    const principal = configFileSchema.safeParse({ as: "acme" });
    expect(principal.error?.issues[0]?.path).toEqual(["as"]);
  });

  it("docs/configuration.md lists every option, every environment variable and every section", () => {
    const docs = readFileSync(DOCS, "utf8");
    const shape = configFileSchema.shape;
    const keys = [
      ...Object.keys(shape),
      ...Object.keys(shape.ask.unwrap().shape).map((k) => `ask.${k}`),
      ...Object.keys(shape.ask.unwrap().shape.checkpoints.unwrap().shape).map((k) => `ask.checkpoints.${k}`),
      ...Object.keys(shape.roles.unwrap().shape).map((k) => `roles.${k}`),
      ...Object.keys(shape.sources.unwrap().element.shape).map((k) => `sources[].${k}`),
      ...Object.keys(shape.serve.unwrap().shape).map((k) => `serve.${k}`),
      ...Object.keys(shape.models.unwrap().valueType.shape).map((k) => `models.*.${k}`),
      "mcp.as",
    ];
    const missing = keys.filter((k) => !docs.includes(`\`${k}\``));
    expect(missing).toEqual([]);
    const env = SETTINGS.flatMap((s) => (s.env ? [s.env] : []));
    expect(env.filter((name) => !docs.includes(`\`${name}\``))).toEqual([]);
    const flags = SETTINGS.flatMap((s) => (s.flagName ? [s.flagName] : []));
    expect(flags.filter((flag) => !docs.includes(`\`${flag}`))).toEqual([]);
  });
});
