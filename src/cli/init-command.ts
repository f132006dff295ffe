import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as p from "@clack/prompts";
import type { Command } from "commander";
import { type ConfigFile, configFileSchema } from "../config/config-schema.js";
import { DEFAULT_PRESET, PRESET_NAMES, type Preset } from "../config/presets.js";
import { resolveConfig } from "../config/resolve-config.js";
import { InvalidInputError } from "../spec/errors.js";
import { checkModel } from "./doctor-checks.js";
import { EXIT } from "./exit-codes.js";
import { oneOf } from "./flag-parsers.js";
import { formatAnswer } from "./format.js";
import { proposeSources } from "./init-sources.js";
import { type GlobalOptions, openFerret, usesGlobalOptions } from "./options.js";

interface InitFlags extends GlobalOptions {
  yes?: boolean;
  force?: boolean;
  preset?: Preset;
}

const CONFIG = "ferret.config.json";
const DB = ".ferret/ferret.db";

/** The `$schema` line: the shipped schema, relative to the new config file so it works wherever both move together. */
function schemaRef(folder: string): string {
  const shipped = fileURLToPath(new URL("../../ferret.config.schema.json", import.meta.url));
  const rel = relative(folder, shipped).split("\\").join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

class Cancelled extends Error {}

/** A clack answer, or out when the person pressed Ctrl-C. */
function answer<T>(value: T | symbol): Exclude<T, symbol> {
  if (p.isCancel(value)) throw new Cancelled();
  return value as Exclude<T, symbol>;
}

/** The embedders offered: none always; a local model when its runtime is installed; OpenAI when a key is set. */
function embedderChoices(env: NodeJS.ProcessEnv): { value: string; label: string; hint?: string }[] {
  const choices = [{ value: "none", label: "none", hint: "keyword search (BM25); nothing to download" }];
  try {
    createRequire(import.meta.url).resolve("@huggingface/transformers");
    choices.push({ value: "local:Xenova/all-MiniLM-L6-v2", label: "local model", hint: "downloads 23 MB once" });
  } catch {}
  if (env.OPENAI_API_KEY)
    choices.push({ value: "openai:text-embedding-3-small", label: "OpenAI", hint: "OPENAI_API_KEY is set" });
  return choices;
}

function modelChoices(env: NodeJS.ProcessEnv): { value: string; label: string; hint?: string }[] {
  const choices = [{ value: "offline", label: "offline", hint: "deterministic, no network, no key" }];
  if (env.OPENAI_API_KEY) choices.push({ value: "openai:gpt-4o-mini", label: "OpenAI gpt-4o-mini", hint: "key set" });
  if (env.ANTHROPIC_API_KEY)
    choices.push({ value: "anthropic:claude-haiku-4-5", label: "Anthropic Claude Haiku", hint: "key set" });
  choices.push({ value: "ollama:qwen3", label: "Ollama qwen3", hint: "a local Ollama server" });
  return choices;
}

/** Asks a person, on the terminal, for everything the file holds. */
async function interactive(folder: string, base: ConfigFile, env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  p.intro("ferret init");
  const proposed = proposeSources(folder);
  if (proposed.length === 0) throw new InvalidInputError(`found no documents or tables under ${folder}`);
  const picked = answer(
    await p.multiselect({
      message: "Sources to ingest",
      options: proposed.map((s) => ({ value: s.path, label: `${s.name} (${s.path})`, hint: `${s.kind}, ${s.files}` })),
      initialValues: proposed.map((s) => s.path),
      required: true,
    }),
  );
  const sources: NonNullable<ConfigFile["sources"]> = [];
  for (const s of proposed.filter((x) => picked.includes(x.path))) {
    const description = answer(
      await p.text({ message: `What does ${s.name} hold? (the agent routes by it)`, initialValue: s.description }),
    );
    const roles = answer(
      await p.text({ message: `Who may read ${s.name}? (roles, comma-separated; empty: everyone)`, defaultValue: "" }),
    );
    const acl = (roles ?? "")
      .split(",")
      .map((r) => r.trim())
      .filter(Boolean);
    sources.push({ path: s.path, name: s.name, description, ...(acl.length ? { acl } : {}) });
  }
  const embedder = answer(
    await p.select({ message: "Embedder", options: embedderChoices(env), initialValue: base.embedder ?? "none" }),
  );
  const model = answer(
    await p.select({ message: "Model", options: modelChoices(env), initialValue: base.model ?? "offline" }),
  );
  if (model !== "offline") {
    const spin = p.spinner();
    spin.start(`testing ${model}`);
    const check = await checkModel(model, {
      config: resolveConfig({ flags: { model }, env, cwd: folder }),
      db: DB,
      env,
      timeoutMs: 15_000,
    });
    spin.stop(check.status === "ok" ? `${model}: ${check.detail}` : `${model}: ${check.detail}`);
    if (check.status !== "ok") {
      p.log.warn(check.fix ?? "the model could not be reached");
      if (!answer(await p.confirm({ message: `Keep ${model} anyway?`, initialValue: false })))
        return interactive(folder, base, env);
    }
  }
  const preset = answer(
    await p.select({
      message: "Behaviour",
      options: PRESET_NAMES.map((v) => ({
        value: v,
        label: v,
        hint: { conservative: "refuses sooner", balanced: "default", thorough: "searches longer" }[v],
      })),
      initialValue: base.ask?.preset ?? DEFAULT_PRESET,
    }),
  );
  const beforeAnswer = answer(
    await p.confirm({ message: "Pause for you before each answer (a checkpoint)?", initialValue: false }),
  );
  return {
    ...base,
    embedder,
    model,
    ask: { ...base.ask, preset, ...(beforeAnswer ? { checkpoints: { beforeAnswer: true } } : {}) },
    sources,
  };
}

/** Everything from flags and defaults, the proposed sources as they are. */
function unattended(folder: string, base: ConfigFile): ConfigFile {
  const proposed = proposeSources(folder);
  if (proposed.length === 0) {
    throw new InvalidInputError(
      `found no documents (.md, .txt, .html, .pdf, .docx) or tables (.csv, .jsonl) under ${folder}`,
      { file: folder },
    );
  }
  return {
    ...base,
    sources: proposed.map((s) => ({ path: s.path, name: s.name, description: s.description })),
  };
}

/** A question drawn from the ingested content: about the first document's title. */
function sampleQuestion(title: string | undefined): string | undefined {
  const clean = title?.replace(/\.[a-z0-9]{1,5}$/i, "").trim();
  return clean ? `What is "${clean}" about?` : undefined;
}

/** `ferret init [FOLDER]`: writes ferret.config.json for the folder, ingests it and asks a first question. */
export function initCommand(program: Command, setExit: (code: number) => void): void {
  usesGlobalOptions(
    program
      .command("init")
      .argument("[folder]", "the project folder (default: the working folder)", ".")
      .description("set up a folder: propose sources, pick the models, write ferret.config.json, ingest")
      .option("--yes", "do not ask: the proposed sources, the flags and the defaults")
      .option("--force", "replace an existing ferret.config.json")
      .option("--preset <preset>", "conservative | balanced | thorough (default balanced)", oneOf(PRESET_NAMES)),
  ).action(async (folderArg: string, flags: InitFlags) => {
    const folder = resolve(folderArg);
    const file = join(folder, CONFIG);
    if (existsSync(file) && !flags.force) {
      throw new InvalidInputError(`${file} exists; edit it, or pass --force to write a new one`, { file });
    }
    const interactiveRun = !flags.yes;
    if (interactiveRun && !process.stdin.isTTY) {
      throw new InvalidInputError("no terminal to ask on: pass --yes to take the proposed sources and the defaults");
    }
    const base: ConfigFile = {
      $schema: schemaRef(folder),
      db: DB,
      model: flags.model ?? "offline",
      embedder: flags.embedder ?? "none",
      ask: { preset: flags.preset ?? DEFAULT_PRESET },
    };
    let config: ConfigFile;
    try {
      config = interactiveRun ? await interactive(folder, base, process.env) : unattended(folder, base);
    } catch (error) {
      if (error instanceof Cancelled) {
        p.cancel("Nothing written.");
        setExit(EXIT.failed);
        return;
      }
      throw error;
    }
    // What is written is what ferret will read back: the same schema checks it first.
    configFileSchema.parse(config);
    writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
    const say = (line: string) => (flags.json ? undefined : process.stderr.write(`${line}\n`));
    say(`wrote ${file} (${config.sources?.length ?? 0} sources)`);

    const ferret = await openFerret({ ...flags, config: file, db: join(folder, DB) }, "create");
    try {
      const spin = interactiveRun ? p.spinner() : undefined;
      spin?.start("ingesting");
      let chunks = 0;
      let documents = 0;
      let failed = 0;
      for (const source of config.sources ?? []) {
        const summary = await ferret.ingest(join(folder, source.path), {
          source: source.name,
          description: source.description,
          acl: source.acl,
          onProgress: (e) => spin?.message(`${source.name}: ${e.phase} ${e.done}/${e.total}`),
        });
        chunks += summary.chunks;
        documents += summary.added + summary.updated + summary.unchanged;
        failed += summary.failed.length;
      }
      spin?.stop(`ingested ${documents} documents (${chunks} chunks)`);
      if (!interactiveRun) say(`ingested ${documents} documents, ${chunks} chunks, ${failed} failed`);
      const sourcesNow = await ferret.sources();
      const first = sourcesNow.find((s) => s.kind === "documents" && s.documents > 0) ?? sourcesNow[0];
      const listed = first ? await ferret.documents(first.name, { limit: 1 }) : undefined;
      let question = sampleQuestion(listed?.documents[0]?.title);
      if (interactiveRun && question) {
        question = answer(await p.text({ message: "Ask a first question", initialValue: question }));
      }
      let result: { status: string; text: string; runId: string } | undefined;
      if (question) {
        const reply = await ferret.ask(question);
        result = { status: reply.status, text: reply.text, runId: reply.runId };
        if (!flags.json) process.stdout.write(`\n? ${question}\n${formatAnswer(reply)}\n`);
      }
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ config: file, sources: config.sources, documents, chunks, failed, question, answer: result }, null, 2)}\n`,
        );
      }
      if (interactiveRun) p.outro(`Ready. Ask more with: ferret ask "…"  (or ferret chat)`);
      else say(`\nready: ferret ask "…" or ferret chat, in ${folder}`);
      if (documents === 0) setExit(EXIT.failed);
    } catch (error) {
      if (error instanceof Cancelled) {
        p.cancel("Stopped; the config file and what was ingested stay.");
        setExit(EXIT.failed);
        return;
      }
      throw error;
    } finally {
      await ferret.close();
    }
  });
}
