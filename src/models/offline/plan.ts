import { looksLikeInstruction } from "../../safety/instruction-like.js";
import type { AgentState, EngineContext, PlanResult } from "../../spec/engine.js";
import type { ToolCallRequest } from "../../spec/trace.js";
import { mentions } from "../../text/entities.js";
import { coverage, fold, termSet } from "../../text/overlap.js";
import { isCjk, normalise, queryTerms, words } from "../../text/tokenize.js";
import { aliasCodes, aliasNames, evidenceAliases, holdsCode, withAliasNames } from "./aliases.js";
import type { QuestionPart } from "./analyze.js";
import { nounCapitalsIn, typeFit, typeWords, unitBridges } from "./bridge-type.js";
import { commonness, currentLinks, leadsOn, modifierOnly, onChain, siblingRecord, titledAfter } from "./chain-links.js";
import { changeAsk, versionCalls } from "./compare-versions.js";
import { callKey, callsForPart, fullText, passagesOf, unitsOf } from "./evidence-view.js";
import { lookupWorthy } from "./key-link.js";
import { referentSearched } from "./referent.js";
import { rankSources } from "./route.js";
import type { OfflineSettings } from "./settings.js";
import { borrowsDescription, describeCalls, sqlCalls, sqlCovers, sqlThought } from "./sql-steps.js";

type Call = Omit<ToolCallRequest, "callId">;

async function searchCalls(
  state: AgentState,
  ctx: EngineContext,
  part: QuestionPart,
  index: number,
  query: string,
  k: number,
  settings: OfflineSettings,
  exclude: Set<string>,
  follows?: string,
): Promise<Call[]> {
  const ranked = await rankSources(state, ctx, part, query);
  const best = ranked[0]?.score ?? 0;
  const chosen = ranked
    .filter((r, i) => i === 0 || (best > 0 && r.score >= best * settings.sourceMargin))
    .slice(0, settings.maxSourcesPerPart);
  const calls: Call[] = [];
  for (const source of chosen) {
    const args = { corpus: source.name, query, k };
    const key = callKey("search", args);
    if (exclude.has(key)) continue;
    exclude.add(key);
    calls.push({ tool: "search", args, subQuestion: index, ...(follows ? { follows } : {}) });
  }
  return calls;
}

/**
 * A hop from a code looks up the entry keyed by it, when the run has the `lookup` tool: the code is written in
 * every record that refers to it, and a search for it finds those, not the directory row that says what it
 * stands for (a depot code's site and manager).
 */
export function lookupCalls(
  state: AgentState,
  index: number,
  entity: string,
  want: readonly string[],
  settings: Pick<OfflineSettings, "hop" | "hopK">,
  exclude: Set<string>,
): Call[] {
  if (!settings.hop.lookupKeys || !state.tools.some((t) => t.name === "lookup")) return [];
  const found = callsForPart(state, index).flatMap((r) => passagesOf(state, r).map((x) => x.passage));
  if (!lookupWorthy(entity, found, false, settings.hop.lookupNames)) return [];
  const args = { key: entity, ...(want.length > 0 ? { query: want.join(" ") } : {}), k: settings.hopK };
  const key = callKey("lookup", args);
  if (exclude.has(key)) return [];
  exclude.add(key);
  return [{ tool: "lookup", args, subQuestion: index, follows: entity }];
}

/**
 * The first search of a part also runs over every readable source at once, when there are several: the
 * sources ranked best for a part are a guess from descriptions and probes, and one search over all of them
 * is what a plain single pass would see. The loop starts from no less than that and adds its own searches.
 */
function broadCall(
  state: AgentState,
  index: number,
  query: string,
  settings: OfflineSettings,
  exclude: Set<string>,
): Call[] {
  if (state.sources.length < 2 || settings.retrieval.broadK <= 0) return [];
  const args = { query, k: settings.retrieval.broadK };
  const key = callKey("search", args);
  if (exclude.has(key)) return [];
  exclude.add(key);
  return [{ tool: "search", args, subQuestion: index }];
}

/**
 * The passages a hop may start from: when the part names an identifier (a code with a digit: a shipment, a
 * report, a ticket) and some passage of the latest hop mentions it, only those. A hop chains from the record
 * the question named ("the depot that order AB-1234 left from" starts at AB-1234's row), not from the
 * other rows the same search brought up. A plain name is mentioned by many pages, each a fair place to start,
 * and does not narrow them.
 */
export function anchored<P extends { title?: string; section?: string; text: string }>(
  part: Pick<QuestionPart, "entities">,
  passages: readonly P[],
): { passages: P[]; named: boolean } {
  const ids = part.entities.filter((e) => /\d/.test(e) && /\p{L}/u.test(e));
  if (ids.length === 0) return { passages: [...passages], named: false };
  const named = passages.filter((p) => ids.some((e) => mentions(fullText(p), e)));
  return named.length > 0 ? { passages: named, named: true } : { passages: [...passages], named: false };
}

/**
 * The words of a part worth putting in a search: every word the segmenter finds, but not the overlapping
 * character bigrams of Chinese and Japanese text (they serve matching, and a query of thirty of them matches
 * anything) nor single kana (particles and verb endings).
 */
export function searchableWords(terms: readonly string[], text: string): string[] {
  const segmented = new Set(words(text).map((w) => normalise(w.word)));
  return terms.filter(
    (t) => !isCjk(t) || (segmented.has(t) && !/^[\p{Script=Hiragana}\p{Script=Katakana}ー]$/u.test(t)),
  );
}

/** Most words a hop puts after the bridge's name. */
const HOP_WORDS = 4;

/**
 * The words a hop searches for after a bridge's name: what is still missing; for a chained part with
 * `hop.headQuery`, what is asked of the last thing first (its head), then the missing words.
 */
export function hopWords(
  part: Pick<QuestionPart, "chain" | "head" | "text" | "entities" | "terms">,
  missing: readonly string[],
  settings: Pick<OfflineSettings, "hop">,
): string[] {
  const base = missing.length > 0 ? missing : part.head;
  const ordered = settings.hop.headQuery && part.chain && part.head.length > 0 ? [...part.head, ...base] : [...base];
  const words = notNameWords(part, searchableWords([...new Set(ordered)], part.text), settings);
  return settings.hop.headQuery && part.chain ? words.slice(0, HOP_WORDS) : words;
}

/**
 * With `hop.skipNameWords`, the words of the one name the part gives leave a hop's search: the hop looks up
 * the bridge, and the question's own name brings back the page the chain started from (a part naming several
 * keeps them: the others are what the bridge must be linked to). When only such words are
 * missing, the hop searches for the part's other words (what kind of thing is asked), at most `HOP_WORDS`.
 */
function notNameWords(
  part: Pick<QuestionPart, "entities" | "terms" | "text">,
  words: readonly string[],
  settings: Pick<OfflineSettings, "hop">,
): string[] {
  // Of several names, the others than the chain's start are constraints the bridge must meet: keep them.
  // An identifier (a record's code) stays: it is what finds the record's own fields again.
  if (!settings.hop.skipNameWords || part.entities.length !== 1 || /\d/.test(part.entities[0]!)) return [...words];
  const named = termSet(part.entities.join(" "));
  const kept = words.filter((w) => !named.has(fold(w)));
  if (kept.length > 0) return kept;
  const others = searchableWords(
    part.terms.filter((t) => !named.has(t)),
    part.text,
  ).slice(0, HOP_WORDS);
  return others.length > 0 ? others : [...words];
}

/** An entity every word of which an earlier query already held has been followed (or asked) before. */
function usedAlready(entity: string, used: Set<string>): boolean {
  const words = entity.toLowerCase().split(/\s+/).filter(Boolean);
  return used.has(entity.toLowerCase()) || (words.length > 0 && words.every((w) => used.has(w)));
}

/**
 * Bridge entities for the next hop: names and identifiers in the sentences of the latest hop that touch
 * the part, ranked by how much of the part the sentence covers and by whether a probe finds a document
 * titled after the entity.
 */
async function bridges(
  state: AgentState,
  ctx: EngineContext,
  part: QuestionPart,
  index: number,
  used: Set<string>,
  want: readonly string[],
  settings: OfflineSettings,
): Promise<string[]> {
  const records = callsForPart(state, index).filter((r) => r.passageKeys.length > 0);
  const latest = records.filter((r) => r.step === records.at(-1)?.step);
  const seeds = anchored(
    part,
    latest.flatMap((record) => passagesOf(state, record, 3).map((p) => p.passage)),
  );
  const types = typeWords(part);
  const score = (passages: readonly (typeof seeds.passages)[number][], chained: boolean): Map<string, number> => {
    const scored = new Map<string, number>();
    for (const passage of passages) {
      // A passage that names what the question names is where the chain goes on from; others only share words.
      const about = aboutQuestion(part, passage) ? settings.hop.anchorBonus : 0;
      const candidates = [passage.title ?? "", ...unitsOf(passage.text).map((u) => u.text)];
      const nounCapitals = nounCapitalsIn(passage.text, settings.hop.nounCapitals);
      for (const unit of candidates) {
        // A sentence (or title) that tries to steer an AI does not steer the search either.
        if (looksLikeInstruction(unit)) continue;
        // In the record of what the question named, any line may hold the next hop (its row's origin hub),
        // however few of the question's words it shares.
        const touch = Math.max(coverage(part.terms, unit), seeds.named ? settings.retrieval.anchorTouch : 0);
        if (touch === 0 && unit !== passage.title) continue;
        for (const entity of unitBridges(
          unit,
          state.standaloneQuestion,
          types,
          settings.hop.fieldValues,
          nounCapitals,
        )) {
          if (usedAlready(entity, used)) continue;
          // Another record of the kind the question names (a sibling ticket) is a rival, not a link.
          if (settings.hop.skipSiblings && siblingRecord(entity, part.entities)) continue;
          // "an <Adjective> film": a word describing the unit's thing, not a thing the chain can go on to.
          if (settings.hop.skipModifiers && modifierOnly(unit, entity)) continue;
          // A name of the kind asked ("<Name> County" for "which county", a hub code under "origin_hub" for
          // "the hub where") is the chain's next link more often than the other names of its sentence.
          // Only where the chain is: on a page of another thing of the same kind, it is a rival, not a link.
          const fit =
            about > 0 || chained || seeds.named || aboutQuestion(part, passage) ? typeFit(entity, unit, types) : 0;
          scored.set(
            entity,
            Math.max(scored.get(entity) ?? 0, touch + passage.score * 0.2 + about + fit * settings.hop.typeFit),
          );
        }
      }
    }
    return scored;
  };
  // The chain goes on from the page of the link the latest hop followed, when the search found it.
  const chain = settings.hop.chainSeeds
    ? onChain(seeds.passages, currentLinks(part, latest))
    : { passages: seeds.passages, chained: false };
  let scored = score(chain.passages, chain.chained);
  if (scored.size === 0 && chain.chained) scored = score(seeds.passages, false);
  const top = [...scored.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
  const totalDocuments = state.sources.reduce((sum, s) => sum + s.documents, 0);
  for (const entry of top) {
    // The entity graph knows which names have a page of their own in this knowledge base; a probe search
    // answers the same where the store keeps no graph (or the graph does not know the name).
    const known = ctx.entity ? await ctx.entity(entry[0]) : undefined;
    // A name many pages mention ("American", a large country) links everything to everything.
    entry[1] -= (commonness(known?.entity.documents, totalDocuments) ?? 0) * settings.hop.commonPenalty;
    if (known?.defined) {
      entry[1] += 1;
      continue;
    }
    if (!ctx.probe) continue;
    const hits = await ctx.probe(entry[0], { k: 2 });
    if (hits === undefined) continue;
    const titled = settings.hop.strictTitle ? titledAfter : mentions;
    if (hits.some((h) => h.title && titled(h.title, entry[0]))) entry[1] += 1;
    else if (!hits.some((h) => mentions(fullText(h), entry[0]))) entry[1] -= 1;
  }
  if (settings.hop.lookahead > 0 && ctx.probe && want.length > 0) {
    const seen = new Set(seeds.passages.map((p) => p.docId));
    for (const entry of top) {
      // The hop this name would make, tried first: a page beyond the chain's so far that names it and says
      // what is asked ("<country> ... waterfall") is where the chain goes on; names of the same sentence
      // (its river, its district) lead nowhere.
      const hits = await ctx.probe(`${entry[0]} ${want.join(" ")}`, { k: settings.hopK });
      if (hits && leadsOn(entry[0], want, hits, seen)) entry[1] += settings.hop.lookahead;
    }
  }
  return top.sort((a, b) => b[1] - a[1]).map(([e]) => e);
}

/** True when a passage mentions one of the names the part gives (not an identifier: `anchored` handles those). */
export function aboutQuestion(
  part: Pick<QuestionPart, "entities">,
  passage: { title?: string; section?: string; text: string },
): boolean {
  const text = fullText(passage);
  return part.entities.some((e) => mentions(text, e));
}

/**
 * The names a part gives that no passage found for it mentions, and that no search of it has started with:
 * the chain's start, to be found before any bridge is followed ("the country containing <town>" starts at
 * the town's page, which a long question's many common words can push out of the first search).
 */
export function unfoundAnchors(
  part: Pick<QuestionPart, "entities">,
  found: readonly string[],
  queries: readonly string[],
): string[] {
  return unfound(part, found, queries, false);
}

/** The part's names no found text mentions, of those a search did (`searched`) or did not start with. */
function unfound(
  part: Pick<QuestionPart, "entities">,
  found: readonly string[],
  queries: readonly string[],
  searched: boolean,
): string[] {
  return part.entities.filter(
    (e) =>
      !found.some((t) => mentions(t, e)) &&
      queries.some((q) => q.trim().toLowerCase().startsWith(e.toLowerCase())) === searched,
  );
}

/**
 * The names a part gives that no passage found for it mentions although a search has already started with
 * them: the knowledge base (as far as the principal may read it) does not know them.
 */
export function searchedUnfound(
  part: Pick<QuestionPart, "entities">,
  found: readonly string[],
  queries: readonly string[],
): string[] {
  return unfound(part, found, queries, true);
}

/** A table row whose first cell is a code ("| QRV | 17:45 |"): the evidence names things by codes. */
export function codeKeyedRow(text: string): boolean {
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (!t.startsWith("|")) continue;
    const key = t.slice(1).split("|")[0]?.trim().replace(/[*`]/g, "") ?? "";
    if (/^[\p{Lu}\d]{2,6}$/u.test(key) && /\p{L}/u.test(key)) return true;
  }
  return false;
}

/**
 * Searches that reach a named thing through its code (settings.aliases.searchCodes). The evidence of a part
 * holds rows keyed by codes but none that names a thing the question gives: search for the name alone, which
 * finds the directory row giving its code. Once the evidence gives a code for the name, search for the code
 * with the part's missing words: pages keyed by the code ("| QRV | 17:45 |") never spell the name out.
 */
export async function aliasCalls(
  state: AgentState,
  ctx: EngineContext,
  part: QuestionPart,
  index: number,
  missing: readonly string[],
  settings: OfflineSettings,
  issued: Set<string>,
): Promise<{ calls: Call[]; thought: string }> {
  const none = { calls: [], thought: "" };
  if (!settings.aliases.codes || !settings.aliases.searchCodes) return none;
  const records = callsForPart(state, index);
  const queries = state.calls.map((r) => String(r.call.args.query ?? ""));
  const found = records.flatMap((r) => passagesOf(state, r).map((x) => x.passage.text));
  const allTexts = state.evidence.map((e) => e.text);
  const names = termSet(part.entities.join(" "));
  const words = searchableWords(
    (missing.length > 0 ? missing : part.terms).filter((t) => !names.has(t)),
    part.text,
  ).slice(0, settings.hop.anchorWords);
  const calls: Call[] = [];
  const thoughts: string[] = [];
  for (const name of aliasNames(part).slice(0, settings.bridgesPerHop + 1)) {
    const codes = aliasCodes(name, allTexts);
    if (codes.length === 0) {
      // Rows keyed by codes: the name's code is in a directory that a search for the name alone finds.
      if (!found.some(codeKeyedRow)) continue;
      if (queries.some((q) => q.trim().toLowerCase() === name.toLowerCase())) continue;
      const more = await searchCalls(
        state,
        ctx,
        { ...part, entities: [name] },
        index,
        name,
        settings.hopK,
        settings,
        issued,
        name,
      );
      if (more.length > 0) {
        calls.push(...more);
        thoughts.push(`look up "${name}" (the evidence names things by codes)`);
      }
      continue;
    }
    for (const code of codes.slice(0, 2)) {
      if (queries.some((q) => holdsCode(q, code))) continue;
      const query = `${code} ${words.join(" ")}`.trim();
      const more = await searchCalls(
        state,
        ctx,
        { ...part, entities: [code] },
        index,
        query,
        settings.hopK,
        settings,
        issued,
        code,
      );
      if (more.length > 0) {
        calls.push(...more);
        thoughts.push(`"${name}" is ${code} in the evidence; search for "${query}"`);
      }
    }
  }
  return { calls, thought: thoughts.join("; ") };
}

/** Plans the next tool calls: first one search per part in its best sources; then hops and reformulations. */
export async function planCalls(
  state: AgentState,
  ctx: EngineContext,
  parts: QuestionPart[],
  settings: OfflineSettings,
): Promise<PlanResult> {
  const issued = new Set(state.calls.map((c) => callKey(c.call.tool, c.call.args)));
  const calls: Call[] = [];
  const first: Call[] = [];
  const thoughts: string[] = [];
  // A change between versions: once a versioned document is found, search inside it and for its other versions.
  const change = state.calls.length > 0 ? changeAsk(state.standaloneQuestion) : undefined;
  const versions = change ? versionCalls(state, change, settings.hopK) : [];
  if (versions.length > 0) {
    return {
      thought: `a change between versions: search each version for "${change!.query}"`,
      subQuestions: parts.map((p) => p.text),
      calls: versions,
      done: false,
    };
  }
  for (const [index, part] of parts.entries()) {
    if (sqlCovers(state, index, settings.sql)) continue;
    const records = callsForPart(state, index);
    const query = index === 0 && state.rephrase ? state.rephrase : part.query;
    if (records.length === 0 && !borrowsDescription(state, part, index)) {
      const ranked = await rankSources(state, ctx, part, query);
      const describe = describeCalls(
        state,
        part,
        index,
        ranked.map((r) => r.name),
      );
      if (describe.length > 0) {
        calls.push(...describe);
        thoughts.push(`part ${index + 1}: an aggregation; look at the table ${String(describe[0]!.args.table)}`);
      } else {
        calls.push(...(await searchCalls(state, ctx, part, index, query, settings.firstK, settings, issued)));
        calls.push(...broadCall(state, index, query, settings, issued));
        thoughts.push(`part ${index + 1}: search for "${query}"`);
      }
      continue;
    }
    const sql = sqlCalls(state, part, index, settings.sql);
    if (sql.length > 0) {
      calls.push(...sql);
      thoughts.push(`part ${index + 1}: ${sqlThought(state, part, index, settings.sql)}`);
      continue;
    }
    if (
      part.referent &&
      !referentSearched(
        records.map((r) => String(r.call.args.query ?? "")),
        part.referent,
      )
    ) {
      // The part points back to the first part's answer: search from that answer first, ahead of other
      // calls (a step's calls past the budget are dropped from its end).
      const names = termSet(part.referent);
      const words = searchableWords(
        part.terms.filter((t) => !names.has(t)),
        part.text,
      ).slice(0, HOP_WORDS);
      const hop = `${part.referent} ${words.join(" ")}`.trim();
      const more = await searchCalls(
        state,
        ctx,
        { ...part, entities: [part.referent] },
        index,
        hop,
        settings.hopK,
        settings,
        issued,
        part.referent,
      );
      first.push(...more);
      thoughts.push(
        `part ${index + 1}: it asks about "${part.referent}", the first part's answer; search for "${hop}"`,
      );
      continue;
    }
    const grade = state.lastGrade?.subQuestions.find((g) => g.index === index);
    if (grade?.sufficient) continue;
    const missing = grade?.missing ?? part.terms;
    if (records.every((r) => r.call.tool !== "search")) {
      // The table could not answer it (no SQL plan): search for it instead.
      calls.push(...(await searchCalls(state, ctx, part, index, query, settings.firstK, settings, issued)));
      thoughts.push(`part ${index + 1}: no SQL plan; search for "${query}"`);
      continue;
    }
    const found = records.some((r) => r.passageKeys.length > 0);
    if (!found) {
      // Nothing at all: try the next-best source with the same words, then fewer words.
      const relaxed = [...part.entities, ...part.terms.filter((t) => t.length > 3).slice(0, 4)].join(" ");
      const next = await searchCalls(
        state,
        ctx,
        part,
        index,
        query,
        settings.firstK,
        { ...settings, maxSourcesPerPart: 3, sourceMargin: 0 },
        issued,
      );
      const more =
        next.length > 0 ? next : await searchCalls(state, ctx, part, index, relaxed, settings.firstK, settings, issued);
      calls.push(...more);
      thoughts.push(`part ${index + 1}: nothing found; reformulating`);
      continue;
    }
    const codeHops = await aliasCalls(state, ctx, part, index, missing, settings, issued);
    if (codeHops.calls.length > 0) {
      calls.push(...codeHops.calls);
      thoughts.push(`part ${index + 1}: ${codeHops.thought}`);
      continue;
    }
    if (settings.hop.anchorFirst) {
      const aliases = evidenceAliases(state.evidence, aliasNames(part), settings.aliases.codes);
      const found = records.flatMap((r) =>
        passagesOf(state, r).map((x) => withAliasNames(fullText(x.passage), aliases)),
      );
      const anchors = unfoundAnchors(
        part,
        found,
        records.map((r) => String(r.call.args.query ?? "")),
      );
      const stuck = settings.hop.stopUnfound
        ? searchedUnfound(
            part,
            found,
            records.map((r) => String(r.call.args.query ?? "")),
          )
        : [];
      if (stuck.length > 0) {
        // A search that started with the name found nothing naming it: hops from other names will not
        // either (they search for the same missing words), so this part has nothing more worth searching.
        thoughts.push(`part ${index + 1}: nothing found names "${stuck.join('", "')}" after searching for it; stop`);
        continue;
      }
      if (anchors.length > 0) {
        const names = termSet(anchors.join(" "));
        const extra = searchableWords(
          missing.filter((t) => !names.has(t) && !part.entities.includes(t)),
          part.text,
        ).slice(0, settings.hop.anchorWords);
        for (const anchor of anchors.slice(0, settings.bridgesPerHop)) {
          const query = `${anchor} ${extra.join(" ")}`.trim();
          calls.push(
            ...(await searchCalls(
              state,
              ctx,
              { ...part, entities: [anchor] },
              index,
              query,
              settings.hopK,
              settings,
              issued,
              anchor,
            )),
          );
          thoughts.push(`part ${index + 1}: nothing found names "${anchor}"; search for it first`);
        }
        continue;
      }
    }
    const used = new Set<string>();
    for (const r of records)
      for (const w of String(r.call.args.query ?? "")
        .toLowerCase()
        .split(/\s+/))
        used.add(w);
    for (const r of records) used.add(String(r.call.args.query ?? "").toLowerCase());
    // Grades name folded terms ("tak" for "taking"); search with the question's own words.
    const words = queryTerms(part.query);
    const unfold = (t: string) => words.find((w) => fold(w) === t) ?? t;
    const want = hopWords(part, missing, settings).map(unfold);
    const bridgeEntities = (await bridges(state, ctx, part, index, used, want, settings)).filter(
      (e) => !usedAlready(e, used),
    );
    for (const entity of bridgeEntities.slice(0, settings.bridgesPerHop)) {
      calls.push(...lookupCalls(state, index, entity, want, settings, issued));
      const hop = `${entity} ${want.join(" ")}`.trim();
      calls.push(
        ...(await searchCalls(
          state,
          ctx,
          { ...part, terms: want, entities: [entity] },
          index,
          hop,
          settings.hopK,
          settings,
          issued,
          entity,
        )),
      );
      thoughts.push(`part ${index + 1}: follow "${entity}" for ${want.join(", ") || "the answer"}`);
    }
    if (bridgeEntities.length === 0 && missing.length > 0) {
      const narrowed = `${part.entities.join(" ")} ${searchableWords(missing, part.text).join(" ")}`.trim();
      calls.push(...(await searchCalls(state, ctx, part, index, narrowed, settings.hopK, settings, issued)));
      thoughts.push(`part ${index + 1}: search again for the missing ${missing.join(", ")}`);
    }
  }
  return {
    thought: thoughts.join("; ") || "the evidence covers every part",
    subQuestions: parts.map((p) => p.text),
    calls: [...first, ...calls],
    done: first.length + calls.length === 0,
  };
}
