import { z } from "zod";
import { KEYED_RANK, type Keyed, type KeyedKind, keyedBy } from "../retrieval/keyed.js";
import { type Passage, passageKey } from "../spec/passage.js";
import type { SourceInfo } from "../spec/source.js";
import { fold, termSet } from "../text/overlap.js";
import { queryTerms } from "../text/tokenize.js";
import { defineTool, schemaPerArguments, type ToolContext } from "./define-tool.js";
import { MAX_K } from "./search.js";

/** Passages read per source for the key: its mentions, of which only the keyed ones are kept. */
export const LOOKUP_POOL = 100;
/** The score of an entry by how it is keyed: its own record is certain, a name in brackets least so. */
const KEYED_SCORE: Readonly<Record<KeyedKind, number>> = { record: 1, row: 0.9, entry: 0.85, alias: 0.8 };

/** Longest key: an identifier or a name, not a query. */
const MAX_KEY = 120;

export const lookupInputSchema = schemaPerArguments((sources: readonly string[]) => {
  const [first, ...rest] = sources;
  const description = "The source to look in; omit to look in every source you can read.";
  return z.object({
    key: z
      .string()
      .max(MAX_KEY, `key must be at most ${MAX_KEY} characters: one identifier, code or name`)
      .trim()
      .min(1, "key must not be empty")
      .describe("The identifier, code or name to look up (a record id, a table key, a site code)."),
    corpus: (first === undefined ? z.string() : z.enum([first, ...rest])).describe(description).optional(),
    query: z
      .string()
      .max(MAX_KEY * 4)
      .trim()
      .optional()
      .describe("Words of what you want to know about it, to rank its entries (optional)."),
    k: z.number().int().min(1).max(MAX_K).default(5).describe(`How many entries, 1..${MAX_K}.`),
  });
});

/** The record files of a source: a JSONL file, or a table's CSV file, whose rows are `<file>#<key>`. */
function recordFiles(source: SourceInfo): string[] {
  const files = (source.tables ?? []).flatMap((t) => (t.file ? [t.file] : []));
  if (source.kind === "jsonl" && source.path) files.push(source.path);
  return [...new Set(files)];
}

/** Shortest shared start that makes two words one ("manag" of "manages" and "manager"). */
const MIN_STEM = 4;

/**
 * The share of the words that the text holds, a word counting when a word of the text starts with it or it
 * starts with one ("managed" meets "manager" by "manag"): a header names a column ("Manager"), a question asks
 * with a verb ("who manages").
 */
export function stemCoverage(words: readonly string[], text: string): number {
  if (words.length === 0) return 0;
  const have = [...termSet(text)];
  const meets = (w: string) =>
    have.some((h) => {
      const [short, long] = h.length <= w.length ? [h, w] : [w, h];
      return short.length >= MIN_STEM ? long.startsWith(short) : short === long;
    });
  return words.map(fold).filter(meets).length / words.length;
}

interface Entry {
  passage: Passage;
  keyed: Keyed;
  order: number;
}

/** The passages of `sources` keyed by `key`: its own records first, then rows and entries that define it. */
async function keyedEntries(key: string, sources: readonly SourceInfo[], ctx: ToolContext): Promise<Entry[]> {
  const found = new Map<string, Entry>();
  let order = 0;
  const keep = (passages: readonly Passage[]) => {
    for (const passage of passages) {
      const id = passageKey(passage);
      if (found.has(id)) continue;
      const keyed = keyedBy(passage, key);
      if (keyed) found.set(id, { passage, keyed, order: order++ });
    }
  };
  for (const source of sources) {
    // A record named by the key (`<file>#<key>`) is read by its id: among thousands of rows that mention the
    // key (an order's site code), a search may not rank it first.
    for (const file of recordFiles(source)) {
      keep(
        await ctx.retriever.search(key, {
          principal: ctx.principal,
          sources: [source.name],
          docId: `${file}#${key}`,
          k: 3,
          mode: "keyword",
          signal: ctx.signal,
        }),
      );
    }
    // One search per source: a source full of rows that mention the key cannot crowd out another's entry.
    keep(
      await ctx.retriever.search(key, {
        principal: ctx.principal,
        sources: [source.name],
        k: LOOKUP_POOL,
        mode: "keyword",
        signal: ctx.signal,
      }),
    );
  }
  return [...found.values()];
}

/**
 * `lookup`: the entries a key names, not the passages that mention it. A code or id is written in every record
 * that refers to it (each order names its depot), so a search for it returns those; the record keyed by it,
 * the directory row it heads or the line that defines it is what says what it stands for.
 */
export function createLookupTool(options: { sources: readonly string[] }) {
  const names = [...options.sources];
  return defineTool({
    name: "lookup",
    description:
      "Look up an identifier, code or name: the record whose id it is, table rows whose first cell it is, and lines " +
      "or headings that define it; passages that only mention it are left out. Use it for a code found in a record " +
      "(a site, account or product code) to learn what it stands for.",
    inputSchema: lookupInputSchema(names),
    parallelSafe: true,
    cacheable: true,
    reads: "passages",
    describeCall: (args) => `${args.corpus ?? "all sources"} for the entry of '${args.key}'`,
    async execute(args, ctx) {
      const readable = ctx.sources;
      if (args.corpus !== undefined && !readable.some((s) => s.name === args.corpus)) {
        return {
          status: "denied",
          hint: `source '${args.corpus}' is not readable by you; readable: ${readable.map((s) => s.name).join(", ") || "(none)"}`,
        };
      }
      const sources = args.corpus !== undefined ? readable.filter((s) => s.name === args.corpus) : readable;
      const entries = await keyedEntries(args.key, sources, ctx);
      if (entries.length === 0) {
        return {
          status: "no_results",
          passages: [],
          hint: `nothing in ${args.corpus ?? "any source"} is keyed by '${args.key}' (no record, row or entry of its own); search finds passages that mention it`,
        };
      }
      const wanted = args.query ? queryTerms(args.query) : [];
      // An entry fits the words by what it says of the key: its line, its table's header, where it stands.
      const fitOf = (e: Entry) => {
        if (wanted.length === 0) return 0;
        const { title, section, text } = e.passage;
        const line = e.keyed.kind === "record" ? text : text.slice(e.keyed.start, e.keyed.end);
        return stemCoverage(wanted, `${title ?? ""} ${section ?? ""} ${e.keyed.header ?? ""} ${line}`);
      };
      const sorted = entries
        .map((e) => ({ e, rank: KEYED_RANK[e.keyed.kind], fit: fitOf(e) }))
        .sort((a, b) => b.rank - a.rank || b.fit - a.fit || a.e.order - b.e.order);
      // One entry per document: a page named by the key is one entry, however many of its chunks hold the key.
      const docs = new Set<string>();
      const ranked = sorted
        .filter(({ e }) => {
          const doc = `${e.passage.source}\u0000${e.passage.docId}`;
          if (docs.has(doc)) return false;
          docs.add(doc);
          return true;
        })
        .slice(0, args.k);
      // A score says how the entry is keyed and, when words are given, how much of them its entry holds.
      const passages = ranked.map(({ e, fit }) => ({
        ...e.passage,
        score: KEYED_SCORE[e.keyed.kind] * (wanted.length > 0 ? (1 + fit) / 2 : 1),
      }));
      return { status: "ok", passages };
    },
  });
}
