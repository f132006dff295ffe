import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { EmbeddingModel, Tool } from "ai";
import { type AgentMode, askAgent, runAgent } from "./agent/index.js";
import type { AgentLimits, CheckpointRequest, CheckpointSettings } from "./agent/options.js";
import { embedderFromModel, isEmbeddingModelObject } from "./embedders/api-embedder.js";
import { checkEmbedderCompatible, embedChunks } from "./embedders/embed-chunks.js";
import { resolveEmbedder } from "./embedders/resolve.js";
import { type ModelChoice, resolveEngine } from "./engine.js";
import { type IngestSummary, ingestPath } from "./ingest/ingest.js";
import type { IngestLimits } from "./ingest/limits.js";
import type { LoaderRegistration, LoaderRegistry } from "./ingest/loader-registry.js";
import { defaultLoaders } from "./ingest/loaders/index.js";
import { type PathWatcher, type WatchPathOptions, watchPath } from "./ingest/watch/watch-path.js";
import type { WebIngestOptions } from "./ingest/web/ingest-web.js";
import { type ApiKeys, createApiKeys } from "./keys/api-keys.js";
import { createSpendLedger, type SpendLedger } from "./keys/spend-ledger.js";
import { type AddDocument, type AddOptions, addDocuments } from "./library/add-documents.js";
import { type AsToolOptions, ferretTool, toolsOf } from "./library/as-tool.js";
import {
  type DocumentChunk,
  type DocumentEntry,
  listDocuments,
  readDocument,
  removeDocument,
} from "./library/documents.js";
import { type UploadFile, uploadFiles } from "./library/upload.js";
import { createOfflineEngine } from "./models/offline/index.js";
import { isLanguageModelObject } from "./models/resolve.js";
import { createSubQueryCache, type SubQueryCache } from "./retrieval/cache.js";
import { chooseRetrieval, createHierarchicalRetriever } from "./retrieval/hierarchical.js";
import { resolveReranker } from "./retrieval/rerank.js";
import type { Retriever, SearchMode } from "./retrieval/retriever.js";
import { createRetriever } from "./retrieval/search.js";
import {
  checkHistory,
  checkQuery,
  checkQuestion,
  checkSearchOptions,
  fitSession,
  type InputLimits,
  resolveInputLimits,
} from "./safety/input-limits.js";
import type { Answer } from "./spec/answer.js";
import type { DocumentRecord } from "./spec/document.js";
import type { EmbedderV1 } from "./spec/embedder.js";
import type { AgentEngineV1, Preset } from "./spec/engine.js";
import { InvalidInputError, StoreError } from "./spec/errors.js";
import { graphOf } from "./spec/graph.js";
import { keyStoreOf, spendStoreOf } from "./spec/keys.js";
import type { Passage } from "./spec/passage.js";
import { LOCAL_OWNER, type Principal } from "./spec/principal.js";
import type { RerankerV1 } from "./spec/reranker.js";
import type { SourceInfo } from "./spec/source.js";
import {
  hasCapability,
  type RunListQuery,
  type RunRecord,
  type RunSummary,
  type SessionStoreV1,
  type SessionTurn,
  type StoreV1,
  tableStoreOf,
} from "./spec/store.js";
import type { ToolResult } from "./spec/tool-result.js";
import type { CheckpointDecision, TraceEvent } from "./spec/trace.js";
import { createPostgresStore, isPostgresUrl } from "./stores/postgres/index.js";
import { createSqliteStore } from "./stores/sqlite/index.js";
import { isWebUrl } from "./text/text-fragment.js";
import { createCachedExecutor } from "./tools/cached-executor.js";
import { type AnyTool, DEFAULT_LOW_CONFIDENCE } from "./tools/define-tool.js";
import { executeToolCall } from "./tools/execute-tool-call.js";
import { graphTools } from "./tools/graph-tools.js";
import { sqlTools } from "./tools/run-sql.js";
import { createToolset } from "./tools/toolset.js";
import { readableRun } from "./trace/readable-run.js";

/** An AI SDK embedding model object, as opposed to a name. */
export type EmbeddingModelObject = Exclude<EmbeddingModel, string>;

export const DEFAULT_DB = ".ferret/ferret.db";

export interface FerretOptions {
  /** SQLite file; default `.ferret/ferret.db`. Ignored when `store` is given. */
  db?: string;
  /**
   * A read-only replica of the PostgreSQL `db` (a postgres:// URL): searches and `run_sql` read there, writes
   * go to `db`. Only with a PostgreSQL `db`.
   */
  dbRead?: string;
  store?: StoreV1;
  /**
   * More file loaders, by extension or media type (see docs/loaders.md): they extend the built-in ones and
   * those added with `registerLoader`, and replace them for the same extension. Files they load are parsed
   * in this process.
   */
  loaders?: readonly LoaderRegistration[];
  /**
   * `none` (default), `local:<model>`, `openai:<model>`, `ollama:<model>`, `openai-compatible:<model>`,
   * `hash:<dims>`, an AI SDK embedding model (`openai.embedding("text-embedding-3-small")`), or an embedder.
   */
  embedder?: string | EmbeddingModelObject | EmbedderV1;
  /** `offline` (default), `provider:model`, an AI SDK language model (`anthropic("claude-haiku-4-5")`), or an engine. */
  model?: ModelChoice | AgentEngineV1;
  /** Refuse offline answers whose confidence is below this (0..1); default: the preset's calibrated threshold. */
  minConfidence?: number;
  /** Different models per role; unset roles use `model`. */
  models?: { planner?: ModelChoice; grader?: ModelChoice; answerer?: ModelChoice };
  baseUrl?: string;
  apiKey?: string;
  /**
   * Who acts when a call names nobody: a principal, or a function choosing one from the store (the CLI's
   * `localOwnerOf` acts in the store's only tenant). Default: `LOCAL_OWNER`, the owner of the file, holding
   * every role (`*`) in the `default` tenant: a library opening its own file reads all of it. A program
   * serving others names the principal on every call (the server always does, from the key or token).
   * Ingest without `tenant` goes to this principal's tenant when it is a fixed one, else to `default`.
   */
  principal?: Principal | ((store: StoreV1) => Promise<Principal>);
  cacheDir?: string;
  /** Re-rank the gathered evidence against the question before answering: `lexical`, `local:<model>`, or a reranker. */
  reranker?: string | RerankerV1;
  /** The sub-query cache (on by default): repeated searches under the same access scope cost nothing. */
  cache?: boolean | { maxEntries?: number; ttlMs?: number };
  /**
   * `flat` (default): chunk search. `hierarchical`: a document pass, then chunks of the best documents.
   * `auto`: hierarchical when the store holds 50,000 chunks or more.
   */
  retrieval?: "flat" | "hierarchical" | "auto";
  /**
   * Size caps on questions (default 4,000 characters), history (50 turns, 32,000 characters) and search
   * queries (1,000 characters). Input over a cap is an `InvalidInputError` naming the field, raised before
   * any work; a model-written query over the cap is a readable tool error.
   */
  inputLimits?: Partial<InputLimits>;
  env?: Record<string, string | undefined>;
  onWarning?: (message: string) => void;
  /** The clock of key times and spend days (tests move it past midnight UTC). */
  now?: () => number;
}

export interface FerretIngestOptions {
  source?: string;
  description?: string;
  acl?: string[];
  tenant?: string;
  prune?: boolean;
  maxFileBytes?: number;
  /** Decoding and parsing caps (file, zip, front matter, HTML, PDF, CSV, parse timeout and worker heap); defaults for any not given. */
  limits?: Partial<IngestLimits>;
  onProgress?: (e: { phase: string; done: number; total: number; file?: string }) => void;
  /** Parse worker threads; default one per core (at most 4), 0 parses in process. */
  workers?: number;
  /** For an http(s) URL: sitemap, crawl depth, page limit, per-host pacing, caps, private addresses (see `ingestWeb`). */
  web?: Pick<
    WebIngestOptions,
    "sitemap" | "depth" | "maxPages" | "perHostIntervalMs" | "maxPageBytes" | "timeoutMs" | "allowPrivate" | "robots"
  >;
}

export interface FerretSearchOptions {
  sources?: string[];
  docId?: string;
  since?: string;
  k?: number;
  mode?: SearchMode;
  principal?: Principal;
}

export interface AskOptions {
  principal?: Principal;
  mode?: AgentMode;
  preset?: Preset;
  limits?: Partial<AgentLimits>;
  history?: Pick<SessionTurn, "role" | "content">[];
  /** Keep the conversation in the store under this id: its turns become the history, and this turn is added. */
  sessionId?: string;
  checkpoints?: CheckpointSettings;
  onCheckpoint?: (request: CheckpointRequest) => Promise<CheckpointDecision>;
  signal?: AbortSignal;
  /**
   * What is left of a spending allowance (a tenant's daily cap), in USD: the run makes no model call that
   * would pass it and stops with `spend_cap`; at 0 or less it makes none at all.
   */
  spendCapUsd?: number;
}

/** The tools a run of one principal has, to call one at a time (an MCP server, a tool API). */
export interface Toolbox {
  readonly principal: Principal;
  /** The sources the principal may read. */
  readonly sources: SourceInfo[];
  /** The same tools `ask` plans with for this principal. */
  readonly tools: readonly AnyTool[];
  /** Validates and runs a call under the principal, the executor's time limit and cache; never throws. */
  call(
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ToolResult>;
}

export interface FerretUploadOptions {
  /** A `documents` source of the principal's tenant; created when missing. */
  source: string;
  principal?: Principal;
  /** For a new source only: an existing one keeps its own. */
  description?: string;
  acl?: string[];
  limits?: Partial<IngestLimits>;
  workers?: number;
  onProgress?: FerretIngestOptions["onProgress"];
}

export interface Ferret {
  readonly store: StoreV1;
  readonly retriever: Retriever;
  readonly embedder: EmbedderV1 | undefined;
  readonly engine: AgentEngineV1;
  ingest(path: string, options?: FerretIngestOptions): Promise<IngestSummary>;
  /**
   * Ingests a folder or file (pruning what is gone), then keeps it ingested: changes are gathered for
   * `debounceMs` and re-ingested incrementally. Resolves once watching; close the watcher before the ferret.
   */
  watch(
    path: string,
    options?: FerretIngestOptions & Pick<WatchPathOptions, "debounceMs" | "onIngest" | "onError" | "usePolling">,
  ): Promise<PathWatcher>;
  search(query: string, options?: FerretSearchOptions): Promise<Passage[]>;
  sources(options?: { principal?: Principal }): Promise<SourceInfo[]>;
  ask(question: string, options?: AskOptions): Promise<Answer>;
  stream(question: string, options?: AskOptions): AsyncIterable<TraceEvent>;
  /**
   * A stored run, re-checked against the reader's current rights: passages from sources or documents the
   * reader can no longer read are redacted, with everything derived from them (see `readableRun`).
   */
  trace(runId: string, options?: { principal?: Principal }): Promise<RunRecord | undefined>;
  /** Who acts in a call that names nobody (see `FerretOptions.principal`). */
  defaultPrincipal(): Promise<Principal>;
  /** The runs the principal may read (their own; every user's for an owner), newest first. */
  runs(options?: RunListQuery & { principal?: Principal }): Promise<RunSummary[]>;
  /** The turns of a session of the principal (empty when it has none). */
  turns(sessionId: string, options?: { principal?: Principal }): Promise<SessionTurn[]>;
  /** The principal's tools, for calling them one by one with the same rights, limits and cache as a run. */
  toolbox(options?: { principal?: Principal }): Promise<Toolbox>;
  /**
   * Adds documents given as text to documents sources of the principal's tenant (`documents` unless a document
   * or the options name another), chunked, embedded and hashed as ingested files are: adding the same id again
   * replaces the document when it changed, and skips it when it did not.
   */
  add(documents: readonly AddDocument[], options?: AddOptions & { principal?: Principal }): Promise<IngestSummary>;
  /**
   * ferret as one AI SDK tool for another agent's `generateText`: `search` (default) returns passages,
   * `ask` runs ferret's agent and returns a cited answer.
   */
  asTool(options?: AsToolOptions): Tool;
  /** The principal's individual tools (the ones `ask` plans with) as AI SDK tools, keyed by name. */
  tools(options?: { principal?: Principal }): Promise<Record<string, Tool>>;
  /** Adds files to a documents source through the ingest (see `uploadFiles`): failed and skipped files by name. */
  upload(files: readonly UploadFile[], options: FerretUploadOptions): Promise<IngestSummary>;
  /** A readable document with its chunks and their offsets, or undefined. */
  document(
    docId: string,
    options: { source: string; principal?: Principal },
  ): Promise<{ document: DocumentRecord; chunks: DocumentChunk[] } | undefined>;
  /** A page of the readable documents of a source (no text); undefined when the source is not readable. */
  documents(
    source: string,
    options?: { principal?: Principal; limit?: number; after?: string },
  ): Promise<{ documents: DocumentEntry[]; next?: string } | undefined>;
  /** Removes a readable document of a source; false when there is none the principal may read. */
  removeDocument(docId: string, options: { source: string; principal?: Principal }): Promise<boolean>;
  /** API keys kept in the store (hashed), mapping each to a principal. */
  readonly keys: ApiKeys;
  /** Daily spend per tenant and key, kept in the store. */
  readonly spend: SpendLedger;
  close(): Promise<void>;
}

/** The parts a knowledge base is assembled from, resolved from `FerretOptions` (no policy decided here). */
export interface FerretParts {
  store: StoreV1;
  embedder: EmbedderV1 | undefined;
  engine: AgentEngineV1;
  retriever: Retriever;
  reranker: RerankerV1 | undefined;
  cache: SubQueryCache | undefined;
  inputLimits: InputLimits;
  /** Loaders for ingest; the process-wide registry when undefined. */
  loaders?: LoaderRegistry;
}

/** Opens (or creates) a knowledge base: the embedded SQLite store by default, offline engine, keyword search. */
export async function createFerret(options: FerretOptions = {}): Promise<Ferret> {
  return assembleFerret(await resolveFerretParts(options), options);
}

/**
 * Configuration resolution: opens the store and resolves the embedder, engine, retriever, reranker and cache
 * from the options. Who acts (the principal) is not decided here but by the caller (`assembleFerret`).
 */
export async function resolveFerretParts(options: FerretOptions = {}): Promise<FerretParts> {
  const env = options.env ?? process.env;
  const inputLimits = resolveInputLimits(options.inputLimits);
  const warn = options.onWarning ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
  let store = options.store;
  if (!store) {
    const path = options.db ?? DEFAULT_DB;
    if (options.dbRead !== undefined && !isPostgresUrl(path)) {
      throw new InvalidInputError("--db-read (FERRET_DB_READ) names a replica of a PostgreSQL --db; --db is not one", {
        field: "dbRead",
      });
    }
    if (isPostgresUrl(path)) store = await createPostgresStore({ url: path, readUrl: options.dbRead, onWarning: warn });
    else {
      if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
      store = await createSqliteStore({ path });
    }
  }
  const wanted = isEmbeddingModelObject(options.embedder)
    ? embedderFromModel(options.embedder)
    : typeof options.embedder === "object"
      ? options.embedder
      : await resolveEmbedder({
          spec: options.embedder,
          cacheDir: options.cacheDir,
          baseUrl: options.baseUrl,
          apiKey: options.apiKey,
          env,
          onWarning: warn,
        });
  // A store without vector search gets no vectors: ingest and search are keyword-only, and the caller is told.
  const embedder = wanted && !hasCapability(store, "vector") ? undefined : wanted;
  if (wanted && !embedder) {
    warn(`the ${store.provider} store has no vector search: embedder ${wanted.id} is not used; search is by keyword`);
  }
  const engine =
    typeof options.model === "object" && !isLanguageModelObject(options.model)
      ? options.model
      : options.model && options.model !== "offline"
        ? resolveEngine({
            model: options.model,
            models: options.models,
            baseUrl: options.baseUrl,
            apiKey: options.apiKey,
            env,
          })
        : createOfflineEngine(options.minConfidence !== undefined ? { minConfidence: options.minConfidence } : {});
  const flat = createRetriever({ store, embedder });
  // Sizing counts every tenant's chunks: the store's own count, not what one principal may read.
  const shape =
    options.retrieval === "auto"
      ? chooseRetrieval({ chunks: await countChunks(store) })
      : (options.retrieval ?? "flat");
  const retriever =
    shape === "hierarchical"
      ? createHierarchicalRetriever({ store, base: flat, defaultMode: embedder ? "hybrid" : "keyword" })
      : flat;
  const reranker =
    typeof options.reranker === "object"
      ? options.reranker
      : await resolveReranker({ spec: options.reranker, cacheDir: options.cacheDir, env, onWarning: warn });
  const cache: SubQueryCache | undefined =
    options.cache === false ? undefined : createSubQueryCache(typeof options.cache === "object" ? options.cache : {});
  const loaders = options.loaders?.length
    ? defaultLoaders.extend(options.loaders.map((l) => ({ ...l, builtin: false })))
    : undefined;
  return { store, embedder, engine, retriever, reranker, cache, inputLimits, loaders };
}

/** Chunks in the store, over every tenant it holds (the default tenant when it names none). */
async function countChunks(store: StoreV1): Promise<number> {
  const tenants = (await store.tenants?.()) ?? [LOCAL_OWNER.tenant];
  let chunks = 0;
  for (const tenant of tenants) {
    const sources = await store.listSources({ ...LOCAL_OWNER, tenant });
    chunks += sources.reduce((n, src) => n + src.chunks, 0);
  }
  return chunks;
}

/**
 * Assembly: the knowledge base over resolved parts, acting as `policy.principal` when a call names nobody
 * (the local owner of the default tenant when that is not given either; see `FerretOptions.principal`).
 */
export function assembleFerret(parts: FerretParts, policy: Pick<FerretOptions, "principal" | "now"> = {}): Ferret {
  const { store: s, embedder, engine, retriever, reranker, cache, inputLimits, loaders } = parts;
  const executeTool = cache ? createCachedExecutor({ cache }) : undefined;
  const given = policy.principal;
  /** The principal of a call that names none (see `FerretOptions.principal`). */
  const ownerOf = async (): Promise<Principal> => (typeof given === "function" ? given(s) : (given ?? LOCAL_OWNER));
  /** The tenant an ingest names when its options name none: a fixed principal's, else the default tenant. */
  const ingestTenant = typeof given === "object" ? given.tenant : LOCAL_OWNER.tenant;

  async function prepareRun(question: string, opts: AskOptions) {
    // Caps first: nothing reads, splits or stores an over-long question.
    checkQuestion(question, inputLimits);
    const history = [...checkHistory(opts.history, inputLimits)];
    const principal = opts.principal ?? (await ownerOf());
    if (opts.sessionId) {
      history.unshift(...fitSession(await sessions().getTurns(opts.sessionId, principal), history, inputLimits));
    }
    const sources = await s.listSources(principal);
    return {
      toolset: toolsetFor(sources),
      executeTool,
      reranker,
      question,
      history,
      principal,
      engine,
      retriever,
      store: s,
      sources,
      mode: opts.mode,
      preset: opts.preset,
      limits: opts.limits,
      checkpoints: opts.checkpoints,
      onCheckpoint: opts.onCheckpoint,
      signal: opts.signal,
      spendCapUsd: opts.spendCapUsd,
    };
  }

  /** The store's sessions; a session id given to a store without them is an error, not a silent forget. */
  function sessions(): SessionStoreV1 {
    if (!hasCapability(s, "sessions")) throw new StoreError(`The ${s.provider} store keeps no sessions.`);
    return s;
  }

  function toolsetFor(sources: SourceInfo[]) {
    const tables = sources.some((source) => (source.tables?.length ?? 0) > 0);
    return createToolset({
      sources,
      maxQueryChars: inputLimits.maxQueryChars,
      tools: [...(tables && tableStoreOf(s) ? sqlTools : []), ...(graphOf(s) ? graphTools : [])],
    });
  }

  async function remember(sessionId: string | undefined, principal: Principal, question: string, answer: Answer) {
    if (!sessionId) return;
    const at = new Date().toISOString();
    await sessions().appendTurns(sessionId, principal, [
      { role: "user", content: question, at },
      { role: "assistant", content: answer.text, at },
    ]);
  }

  const api: Ferret = {
    store: s,
    retriever,
    embedder,
    engine,
    async ingest(path, opts = {}) {
      const tenant = opts.tenant ?? ingestTenant;
      if (embedder) await checkEmbedderCompatible(s, tenant, embedder);
      const embed = embedder
        ? async (chunks: Parameters<typeof embedChunks>[0]["chunks"]) => {
            await embedChunks({ embedder, store: s, chunks });
            await checkEmbedderCompatible(s, tenant, embedder);
          }
        : undefined;
      let summary: IngestSummary;
      if (isWebUrl(path)) {
        // Loaded on first use: undici, robots-parser and the sitemap reader cost every start-up otherwise.
        const { ingestWeb } = await import("./ingest/web/ingest-web.js");
        summary = await ingestWeb({
          ...opts.web,
          store: s,
          urls: [path],
          tenant,
          source: opts.source,
          description: opts.description,
          acl: opts.acl,
          prune: opts.prune,
          limits: opts.limits,
          onProgress: opts.onProgress,
          embed,
        });
      } else
        summary = await ingestPath({
          store: s,
          path,
          tenant,
          source: opts.source,
          description: opts.description,
          acl: opts.acl,
          prune: opts.prune,
          maxFileBytes: opts.maxFileBytes,
          limits: opts.limits,
          onProgress: opts.onProgress,
          loaders,
          workers: opts.workers,
          embed,
        });
      // What was cached for these sources may be stale now.
      for (const source of summary.sources) cache?.invalidateSource(tenant, source);
      return summary;
    },
    async watch(path, opts = {}) {
      if (isWebUrl(path))
        throw new InvalidInputError(`${path}: only folders and files can be watched`, { field: "path" });
      const { debounceMs, onIngest, onError, usePolling, ...ingestOptions } = opts;
      const ingestAll = () => api.ingest(path, { ...ingestOptions, prune: true });
      onIngest?.(await ingestAll(), []);
      const watcher = watchPath({ path, ingest: ingestAll, debounceMs, onIngest, onError, usePolling });
      await watcher.ready;
      return watcher;
    },
    async search(query, opts = {}) {
      checkQuery(query, inputLimits);
      checkSearchOptions(opts);
      return retriever.search(query, {
        principal: opts.principal ?? (await ownerOf()),
        sources: opts.sources,
        docId: opts.docId,
        since: opts.since,
        k: opts.k,
        mode: opts.mode,
      });
    },
    async sources(opts = {}) {
      return s.listSources(opts.principal ?? (await ownerOf()));
    },
    async ask(question, opts = {}) {
      const run = await prepareRun(question, opts);
      const answer = await askAgent(run);
      await remember(opts.sessionId, run.principal, question, answer);
      return answer;
    },
    async *stream(question, opts = {}) {
      const run = await prepareRun(question, opts);
      const events = runAgent(run);
      while (true) {
        const next = await events.next();
        if (next.done) {
          await remember(opts.sessionId, run.principal, question, next.value);
          return;
        }
        yield next.value;
      }
    },
    async trace(runId, opts = {}) {
      const principal = opts.principal ?? (await ownerOf());
      const record = await s.getRun(runId, principal);
      return record && readableRun({ record, store: s, principal });
    },
    defaultPrincipal: ownerOf,
    async runs(opts = {}) {
      const { principal, ...query } = opts;
      if (!hasCapability(s, "runs") || !s.listRuns) throw new StoreError(`The ${s.provider} store cannot list runs.`);
      return s.listRuns(principal ?? (await ownerOf()), query);
    },
    async turns(sessionId, opts = {}) {
      return sessions().getTurns(sessionId, opts.principal ?? (await ownerOf()));
    },
    async toolbox(opts = {}) {
      const principal = opts.principal ?? (await ownerOf());
      const sources = await s.listSources(principal);
      const toolset = toolsetFor(sources);
      const execute = executeTool ?? executeToolCall;
      return {
        principal,
        sources,
        tools: toolset.names().map((name) => toolset.get(name) as AnyTool),
        call: (name, args, callOptions = {}) =>
          execute(
            toolset,
            { tool: name, args },
            {
              principal,
              retriever,
              store: s,
              sources,
              signal: callOptions.signal ?? new AbortController().signal,
              lowConfidence: DEFAULT_LOW_CONFIDENCE,
            },
            { timeoutMs: callOptions.timeoutMs },
          ),
      };
    },
    async add(documents, opts = {}) {
      const { principal: given, ...add } = opts;
      const principal = given ?? (await ownerOf());
      if (embedder) await checkEmbedderCompatible(s, principal.tenant, embedder);
      const summary = await addDocuments({
        store: s,
        principal,
        documents,
        add,
        embed: embedder
          ? async (chunks) => {
              await embedChunks({ embedder, store: s, chunks });
              await checkEmbedderCompatible(s, principal.tenant, embedder);
            }
          : undefined,
      });
      for (const source of summary.sources) cache?.invalidateSource(principal.tenant, source);
      return summary;
    },
    asTool(opts = {}) {
      return ferretTool(api, opts);
    },
    async tools(opts = {}) {
      return toolsOf(await api.toolbox(opts));
    },
    async upload(files, opts) {
      const principal = opts.principal ?? (await ownerOf());
      return uploadFiles({
        store: s,
        files,
        source: opts.source,
        principal,
        description: opts.description,
        acl: opts.acl,
        ingest: (path, ingestOptions) =>
          api.ingest(path, {
            ...ingestOptions,
            limits: opts.limits,
            workers: opts.workers,
            onProgress: opts.onProgress,
          }),
      });
    },
    async document(docId, opts) {
      return readDocument({ store: s, docId, source: opts.source, principal: opts.principal ?? (await ownerOf()) });
    },
    async documents(source, opts = {}) {
      const principal = opts.principal ?? (await ownerOf());
      return listDocuments({ store: s, source, principal, limit: opts.limit, after: opts.after });
    },
    async removeDocument(docId, opts) {
      const principal = opts.principal ?? (await ownerOf());
      const removed = await removeDocument({ store: s, docId, source: opts.source, principal });
      if (removed) cache?.invalidateSource(principal.tenant, opts.source);
      return removed;
    },
    keys: createApiKeys({ store: keyStoreOf(s), provider: s.provider, now: policy.now }),
    spend: createSpendLedger({ store: spendStoreOf(s), provider: s.provider, now: policy.now }),
    close() {
      return s.close();
    },
  };
  return api;
}
