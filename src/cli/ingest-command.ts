import { dirname, resolve } from "node:path";
import cliProgress from "cli-progress";
import type { Command } from "commander";
import { resolveConfig } from "../config/resolve-config.js";
import type { Ferret } from "../ferret.js";
import type { IngestSummary } from "../ingest/ingest.js";
import { evalSetTenant } from "../ingest/set-tenant.js";
import type { PathWatcher } from "../ingest/watch/watch-path.js";
import { InvalidInputError } from "../spec/errors.js";
import { isWebUrl } from "../text/text-fragment.js";
import { positiveNumber, wholeNumber } from "./flag-parsers.js";
import { type GlobalOptions, openFerret, print, usesGlobalOptions } from "./options.js";

interface IngestFlags extends GlobalOptions {
  source?: string;
  description?: string;
  acl?: string;
  tenant?: string;
  prune?: boolean;
  strict?: boolean;
  maxFileMb?: number;
  workers?: number;
  sitemap?: boolean;
  depth?: number;
  maxPages?: number;
  hostIntervalMs?: number;
  allowPrivate?: boolean;
  watch?: boolean;
}

function summaryText(s: IngestSummary): string {
  const lines = [
    `sources: ${s.sources.join(", ") || "none"}`,
    `documents: ${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged, ${s.removed} removed, ${s.failed.length} failed, ${s.skipped.length} skipped · ${s.chunks} chunks written · ${s.ms} ms`,
  ];
  for (const f of s.failed) lines.push(`  failed  ${f.file}: ${f.reason}`);
  for (const k of s.skipped) lines.push(`  skipped ${k.file}: ${k.reason}`);
  for (const w of s.warnings) lines.push(`  warning ${w.file}: ${w.message}`);
  return lines.join("\n");
}

/** Exit status: 1 when nothing at all could be ingested, or when anything failed under --strict. */
export function ingestExitCode(s: IngestSummary, strict: boolean): number {
  const ingested = s.added + s.updated + s.unchanged;
  if (ingested === 0 && (s.failed.length > 0 || s.skipped.length > 0)) return 1;
  if (strict && s.failed.length > 0) return 1;
  return 0;
}

export interface IngestJob {
  path: string;
  /** The config file's `watch` for the source. */
  watch?: boolean;
  source?: string;
  description?: string;
  acl?: string[];
  tenant?: string;
}

const roles = (acl: string | undefined) =>
  acl
    ?.split(",")
    .map((r) => r.trim())
    .filter(Boolean);

/** What to ingest: the PATH with the flags, or else every source of the config file (paths relative to it). */
export function ingestJobs(
  path: string | undefined,
  flags: GlobalOptions & { tenant?: string } & Pick<IngestFlags, "source" | "description" | "acl">,
): IngestJob[] {
  if (path !== undefined) {
    return [
      { path, source: flags.source, description: flags.description, acl: roles(flags.acl), tenant: flags.tenant },
    ];
  }
  const config = resolveConfig({ flags: { ...flags }, env: process.env });
  const sources = config.content.sources ?? [];
  if (!config.file || sources.length === 0) {
    throw new InvalidInputError(
      `name what to ingest (ferret ingest PATH), or list sources in ${config.file ?? "ferret.config.json"} (\`ferret init\` writes them)`,
      { field: "path" },
    );
  }
  const base = dirname(config.file);
  return sources.map((s) => ({
    path: isWebUrl(s.path) ? s.path : resolve(base, s.path),
    source: s.name,
    description: s.description,
    acl: s.acl,
    tenant: s.tenant ?? flags.tenant,
    watch: s.watch,
  }));
}

/** One summary for several sources ingested in a row. */
function mergeSummaries(list: IngestSummary[]): IngestSummary {
  const [first, ...rest] = list;
  const total: IngestSummary = {
    ...first!,
    sources: [...first!.sources],
    failed: [...first!.failed],
    skipped: [...first!.skipped],
    warnings: [...first!.warnings],
  };
  for (const s of rest) {
    total.sources.push(...s.sources);
    total.added += s.added;
    total.updated += s.updated;
    total.unchanged += s.unchanged;
    total.removed += s.removed;
    total.chunks += s.chunks;
    total.ms += s.ms;
    total.failed.push(...s.failed);
    total.skipped.push(...s.skipped);
    total.warnings.push(...s.warnings);
  }
  return total;
}

/** What ingesting and watching a job share: its source, description, roles, tenant and parse workers. */
function jobOptions(job: IngestJob, flags: IngestFlags) {
  return {
    source: job.source,
    description: job.description,
    acl: job.acl,
    // An evaluation set is ingested for the tenant its questions name (FORMAT.md), unless told otherwise.
    tenant: job.tenant ?? evalSetTenant(job.path),
    workers: flags.workers,
  };
}

/** Watches every folder or file job until SIGINT or SIGTERM, printing each re-ingest that changed something. */
async function watchUntilStopped(ferret: Ferret, jobs: IngestJob[], flags: IngestFlags): Promise<void> {
  const watchers: PathWatcher[] = [];
  try {
    for (const job of jobs.filter((j) => !isWebUrl(j.path))) {
      watchers.push(
        await ferret.watch(job.path, {
          ...jobOptions(job, flags),
          onIngest: (summary, changed) => {
            if (changed.length === 0 || summary.added + summary.updated + summary.removed + summary.failed.length === 0)
              return;
            print(summary, flags.json, () => summaryText(summary));
          },
          onError: (error) => process.stderr.write(`watch: ${(error as Error).message}\n`),
        }),
      );
    }
    if (!flags.json) process.stderr.write(`watching ${watchers.length} path(s); Ctrl-C stops\n`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    });
  } finally {
    for (const watcher of watchers) await watcher.close();
  }
}

export function ingestCommand(program: Command, setExit: (code: number) => void): void {
  usesGlobalOptions(
    program
      .command("ingest")
      .argument("[path]", "folder, file, evaluation-set folder, or http(s) URL (default: the config file's sources)")
      .description("ingest documents into the store (incremental: unchanged documents are skipped)")
      .option("--source <name>", "source name (default: folder or file name)")
      .option("--description <text>", "what the source holds (the agent routes by it)")
      .option("--acl <roles>", "roles allowed to read the source, comma-separated")
      .option("--tenant <tenant>", "tenant to ingest for")
      .option("--prune", "remove documents that are gone from the path")
      .option("--strict", "exit non-zero when any file failed")
      .option("--max-file-mb <n>", "skip files larger than this (default 50)", positiveNumber)
      .option(
        "--workers <n>",
        "parse worker threads (default one per core, at most 4; 0 parses in process)",
        wholeNumber(0, 64),
      )
      .option("--sitemap", "the URL is a sitemap (or sitemap index): ingest the pages it lists")
      .option("--depth <n>", "follow same-site links this many levels from the URL (default 0)", wholeNumber(0, 10))
      .option("--max-pages <n>", "fetch at most this many pages (default 100)", wholeNumber(1, 100_000))
      .option("--host-interval-ms <n>", "time between requests to one host (default 1000)", wholeNumber(0, 600_000))
      .option("--allow-private", "fetch private, loopback and link-local addresses too")
      .option(
        "--watch",
        "after ingesting, keep watching: changed files are re-ingested, deleted ones removed (Ctrl-C stops)",
      ),
  ).action(async (path: string | undefined, flags: IngestFlags) => {
    const jobs = ingestJobs(path, flags);
    const ferret = await openFerret(flags, "create");
    const bar =
      process.stderr.isTTY && !flags.json
        ? new cliProgress.SingleBar(
            { format: "{phase} [{bar}] {value}/{total} {file}", clearOnComplete: true },
            cliProgress.Presets.shades_classic,
          )
        : undefined;
    let started = false;
    let lastLine = 0;
    try {
      const summaries: IngestSummary[] = [];
      for (const job of jobs) {
        started = false;
        summaries.push(
          await ferret.ingest(job.path, {
            ...jobOptions(job, flags),
            prune: flags.prune,
            web: {
              sitemap: flags.sitemap,
              depth: flags.depth,
              maxPages: flags.maxPages,
              perHostIntervalMs: flags.hostIntervalMs,
              allowPrivate: flags.allowPrivate,
            },
            maxFileBytes: flags.maxFileMb !== undefined ? Math.round(flags.maxFileMb * 1024 * 1024) : undefined,
            onProgress: (e) => {
              if (bar) {
                if (!started) bar.start(e.total, e.done, { phase: e.phase, file: e.file ?? "" });
                started = true;
                bar.setTotal(e.total);
                bar.update(e.done, { phase: e.phase, file: e.file ?? "" });
              } else if (!flags.json && Date.now() - lastLine > 2000) {
                lastLine = Date.now();
                process.stderr.write(`${e.phase} ${e.done}/${e.total}\n`);
              }
            },
          }),
        );
        bar?.stop();
      }
      const summary = summaries.length === 1 ? summaries[0]! : mergeSummaries(summaries);
      print(summary, flags.json, () => summaryText(summary));
      setExit(ingestExitCode(summary, flags.strict === true));
      if (flags.watch) await watchUntilStopped(ferret, jobs, flags);
    } finally {
      bar?.stop();
      await ferret.close();
    }
  });
}
