import { type Command, InvalidArgumentError, Option } from "commander";
import { isoDate, kValue, oneOf } from "./flag-parsers.js";
import { formatPassages, formatSources } from "./format.js";
import { type GlobalOptions, openFerret, principalOf, print, usesGlobalOptions } from "./options.js";

interface SearchFlags extends GlobalOptions {
  source?: string[];
  k?: number;
  since?: string;
  doc?: string;
  match?: "keyword" | "vector" | "hybrid";
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function searchCommand(program: Command): void {
  usesGlobalOptions(
    program
      .command("search")
      .argument("<query>", "what to look for")
      .description("search passages (BM25, vector, or hybrid when an embedder built the store)")
      .option("--source <name>", "restrict to a source (repeatable)", collect)
      .option("--k <n>", "passages to return, 1..100", kValue, 5)
      .option("--since <date>", "only documents updated on or after this ISO date (2024-01-31)", isoDate)
      .option("--doc <id>", "search within one document")
      .option(
        "--match <how>",
        "keyword | vector | hybrid (default: hybrid when the store has vectors)",
        oneOf(["keyword", "vector", "hybrid"] as const),
      )
      .addOption(
        // `--mode` names the agent's mode on ask, chat and eval; on search it was the match, now `--match`.
        new Option("--mode <how>").hideHelp().argParser((value: string): never => {
          throw new InvalidArgumentError(
            `On search it is now --match (--match ${value}); --mode is the agent's mode of ask.`,
          );
        }),
      ),
  ).action(async (query: string, flags: SearchFlags) => {
    const ferret = await openFerret(flags, "existing");
    try {
      const passages = await ferret.search(query, {
        sources: flags.source,
        k: flags.k,
        since: flags.since,
        docId: flags.doc,
        mode: flags.match,
        principal: principalOf(flags),
      });
      const shaped = passages.map((p) => ({
        id: p.id,
        docId: p.docId,
        source: p.source,
        title: p.title ?? null,
        section: p.section ?? null,
        text: p.text,
        score: p.score,
        updatedAt: p.updatedAt ?? null,
      }));
      print(shaped, flags.json, () => formatPassages(passages));
    } finally {
      await ferret.close();
    }
  });
}

export function sourcesCommand(program: Command): void {
  usesGlobalOptions(program.command("sources").description("list the sources you may read, with counts")).action(
    async (flags: GlobalOptions) => {
      const ferret = await openFerret(flags, "existing");
      try {
        const sources = await ferret.sources({ principal: principalOf(flags) });
        print(sources, flags.json, () => formatSources(sources));
      } finally {
        await ferret.close();
      }
    },
  );
}
