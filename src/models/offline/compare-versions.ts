import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, DraftClaim } from "../../spec/engine.js";
import type { ToolCallRequest } from "../../spec/trace.js";
import { fold, termSet } from "../../text/overlap.js";
import { queryTerms } from "../../text/tokenize.js";
import { contentTerms } from "./analyze.js";
import { CHANGE, COMPARE, DOWN, NO_WORD, UP, YES_WORD } from "./compare-cues.js";
import { readable, seriesOf } from "./compose.js";
import { callKey, type Unit, unitsOf } from "./evidence-view.js";
import { dateLabel, newer } from "./freshness.js";
import { findCues, hasCue, type Lang, languageOf, withoutCues } from "./question-cues.js";

/**
 * Questions about what changed between two versions of one document ("how did the fee change from the
 * 2024 to the 2025 terms", "did the limit go up in v3", "compare the quotas in plan v1 and v2"). The
 * evidence holds both versions (same series: the same title up to version and date); the reader pairs the
 * units the two versions state alike (the same sentence, or the row of the same key) whose values differ,
 * and answers with each side's unit, then the change: from the older value to the newer.
 */

export interface ChangeAsk {
  /** The question's words about what changed, without versions and cue words (folded). */
  attribute: string[];
  /** The same words as written: what to search each version for. */
  query: string;
  /** "Did it go up": the direction asked, for a yes/no verdict. */
  direction?: "up" | "down";
}

/** A version or year named in a question: "v3", "version 4", "2.4", "2025". */
const VERSION_LABEL = /(?:^|[^\p{L}\d])(?:v(?:ersion)?\s?\d+(?:\.\d+)*|(?:19|20)\d{2})(?![\d.]*\d)/giu;

/** Longest question the reader analyses (cue search is linear; the bound keeps answers cheap). */
const MAX_QUESTION = 400;

/**
 * Is this a question about a change between versions: a change cue ("change", "go up", "geändert",
 * "変更"), or a comparison cue with two versions named ("compare plan v1 and v2")? Undefined otherwise.
 */
export function changeAsk(question: string): ChangeAsk | undefined {
  const q = question.trim();
  if (q.length > MAX_QUESTION) return undefined;
  const lang = languageOf(q);
  const langs: Lang[] = lang === "en" ? ["en"] : [lang, "en"];
  const labels = [...q.matchAll(VERSION_LABEL)];
  const cued = hasCue(q, CHANGE, langs) || hasCue(q, UP, langs) || hasCue(q, DOWN, langs);
  if (!cued && !(labels.length >= 2 && hasCue(q, COMPARE, langs))) return undefined;
  let rest = q.replace(VERSION_LABEL, " ");
  for (const table of [CHANGE, UP, DOWN, COMPARE]) rest = withoutCues(rest, table, langs);
  const direction = findCues(q, UP, langs).length > 0 ? "up" : findCues(q, DOWN, langs).length > 0 ? "down" : undefined;
  const attribute = [...new Set(contentTerms(rest, lang))];
  const asked = new Set(attribute);
  const query = [...new Set(queryTerms(rest).filter((t) => asked.has(fold(t))))].join(" ");
  return { attribute, query, direction };
}

/** A number with what it counts: "48 hours", "2%", "100 requests per second", "EUR 1,200". */
const VALUE = /(?<![\p{L}\d.,])\d+(?:[.,]\d+)*(?:\s?%|\s+(?:per\s+)?\p{L}+(?:\s+per\s+\p{L}+)?)?/gu;

function valuesIn(text: string): string[] {
  return [...text.replace(/\*\*|`/g, "").matchAll(VALUE)].map((m) => m[0].trim());
}

const numberOf = (value: string) => Number((/\d+(?:[.,]\d+)*/.exec(value)?.[0] ?? "").replace(/,/g, ""));

/** The words of a unit other than its numbers: what two versions of one statement share. */
function wordsOf(text: string): Set<string> {
  return new Set([...termSet(text)].filter((t) => !/\d/.test(t)));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim().replace(/\*\*|`/g, ""));

/** Share of words two versions of one sentence must have in common to be read as the same statement. */
const SAME_STATEMENT = 0.5;
/** Most pairs (changed statements) one answer reports. */
const MAX_PAIRS = 3;

export interface VersionUnit {
  n: number;
  item: EvidenceItem;
  unit: Unit;
}

interface ChangedPair {
  old: VersionUnit;
  now: VersionUnit;
  /** "label: old -> new" per changed value. */
  changes: { label?: string; from: string; to: string }[];
  terms: Set<string>;
}

/**
 * The values that differ between two versions of one statement. Table rows of the same key are compared
 * cell by cell under the same column label; sentences by their numbers in order (values both state are not
 * changes). Empty when nothing differs or the two do not line up.
 */
export function changedValues(old: Unit, now: Unit): { label?: string; from: string; to: string }[] {
  if (old.header && now.header) {
    const a = cellsOf(old.text);
    const b = cellsOf(now.text);
    if (fold(a[0]?.toLowerCase() ?? "") !== fold(b[0]?.toLowerCase() ?? "") || !a[0]) return [];
    const out: { label?: string; from: string; to: string }[] = [];
    for (const [i, label] of old.header.entries()) {
      const j = now.header.findIndex((h) => h.toLowerCase() === label.toLowerCase());
      if (i === 0 || j < 0) continue;
      const from = a[i] ?? "";
      const to = b[j] ?? "";
      if (from !== to && /\d/.test(from) && /\d/.test(to)) out.push({ label: `${a[0]}, ${label}`, from, to });
    }
    return out;
  }
  if (old.header || now.header) return [];
  if (jaccard(wordsOf(old.text), wordsOf(now.text)) < SAME_STATEMENT) return [];
  const a = valuesIn(old.text);
  const b = valuesIn(now.text);
  // Values both versions state are the same; the rest changed, paired in order when the counts agree.
  const onlyA = a.filter((v) => !b.includes(v));
  const onlyB = b.filter((v) => !a.includes(v));
  if (onlyA.length === 0 || onlyB.length === 0) return [];
  if (onlyA.length === onlyB.length) return onlyA.map((from, i) => ({ from, to: onlyB[i]! }));
  return [{ from: onlyA.join(", "), to: onlyB.join(", ") }];
}

/** The units of every evidence passage of one document. */
function unitsOfDoc(evidence: readonly EvidenceItem[], docId: string): VersionUnit[] {
  const out: VersionUnit[] = [];
  for (const [i, item] of evidence.entries()) {
    if (item.docId !== docId) continue;
    for (const unit of unitsOf(item.text)) out.push({ n: i + 1, item, unit });
  }
  return out;
}

/** Documents of the evidence that are versions of one another: same source, same series, different titles. */
export function versionPairs(evidence: readonly EvidenceItem[]): [EvidenceItem, EvidenceItem][] {
  const docs = new Map<string, EvidenceItem>();
  for (const e of evidence) if (!docs.has(e.docId)) docs.set(e.docId, e);
  const list = [...docs.values()];
  const out: [EvidenceItem, EvidenceItem][] = [];
  const series = (e: EvidenceItem) => seriesOf(e.title ?? e.docId);
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const a = list[i]!;
      const b = list[j]!;
      // Same title text for two documents (one per customer, say) is a series of records, not versions.
      if (a.source !== b.source || (a.title ?? a.docId) === (b.title ?? b.docId)) continue;
      if (!series(a) || series(a) !== series(b)) continue;
      const order = newer(a, b);
      if (order !== 0) out.push(order < 0 ? [a, b] : [b, a]);
    }
  }
  return out;
}

/**
 * The changed statements between two versions that say most about what is asked: the best pair, then
 * pairs that cover asked words the chosen ones leave out.
 */
export function changedPairs(
  evidence: readonly EvidenceItem[],
  older: EvidenceItem,
  newerDoc: EvidenceItem,
  attribute: readonly string[],
): ChangedPair[] {
  const olds = unitsOfDoc(evidence, older.docId);
  const nows = unitsOfDoc(evidence, newerDoc.docId);
  const pairs: ChangedPair[] = [];
  const asked = new Set(attribute);
  for (const o of olds) {
    for (const w of nows) {
      const changes = changedValues(o.unit, w.unit);
      if (changes.length === 0) continue;
      const context = (v: VersionUnit) => `${v.item.section ?? ""} ${v.unit.header?.join(" ") ?? ""} ${v.unit.text}`;
      const terms = new Set([...termSet(`${context(o)} ${context(w)}`)].filter((t) => asked.has(t)));
      pairs.push({ old: o, now: w, changes, terms });
    }
  }
  const chosen: ChangedPair[] = [];
  const covered = new Set<string>();
  while (chosen.length < MAX_PAIRS) {
    let best: { pair: ChangedPair; gain: number } | undefined;
    for (const p of pairs) {
      if (chosen.includes(p)) continue;
      const gain = [...p.terms].filter((t) => !covered.has(t)).length;
      if (gain > 0 && (!best || gain > best.gain)) best = { pair: p, gain };
    }
    if (!best) break;
    chosen.push(best.pair);
    for (const t of best.pair.terms) covered.add(t);
  }
  return chosen;
}

const FROM_TO: Record<Lang, (label: string, from: string, to: string) => string> = {
  en: (l, f, t) => `${l}from ${f} to ${t}`,
  de: (l, f, t) => `${l}von ${f} auf ${t}`,
  zh: (l, f, t) => `${l}从${f}变为${t}`,
  ja: (l, f, t) => `${l}${f}から${t}に変更`,
};
const CHANGED: Record<Lang, string> = { en: "Changed", de: "Geändert", zh: "变化", ja: "変更" };

/** A version's name for the answer: its title, with its version or date when the title lacks one. */
function nameOf(item: EvidenceItem): string {
  const title = item.title ?? item.docId;
  const label = dateLabel(item);
  return label && !titleVersioned(title) ? `${title} (${label})` : title;
}

/** Does a title carry its own version, edition or date ("Fee schedule (2024 edition)", "Terms v2")? */
function titleVersioned(title: string): boolean {
  return (
    seriesOf(title) !==
    title
      .toLowerCase()
      .replace(/[^\p{L}\d]+/gu, " ")
      .trim()
  );
}

/**
 * The answer to a change question from the evidence: for each changed statement, the older version's unit
 * and the newer one's, each cited, then the change from the older value to the newer (led by yes or no when
 * the question asks whether it went up or down). Undefined when the evidence holds no two versions of one
 * document that state what is asked differently.
 */
export function changeClaims(
  question: string,
  ask: ChangeAsk,
  evidence: readonly EvidenceItem[],
): DraftClaim[] | undefined {
  const lang = languageOf(question);
  let best: { pairs: ChangedPair[]; covered: number; older: EvidenceItem; now: EvidenceItem } | undefined;
  for (const [older, now] of versionPairs(evidence)) {
    const pairs = changedPairs(evidence, older, now, ask.attribute);
    const covered = new Set(pairs.flatMap((p) => [...p.terms])).size;
    if (pairs.length > 0 && (!best || covered > best.covered)) best = { pairs, covered, older, now };
  }
  if (!best) return undefined;
  const claims: DraftClaim[] = [];
  const side = (v: VersionUnit): DraftClaim => ({
    text: `${nameOf(v.item)}: ${readable(v.unit.text, v.unit.header)}`,
    citations: [{ n: v.n, quote: v.unit.text }],
  });
  for (const pair of best.pairs) {
    claims.push(side(pair.old), side(pair.now));
    const said = pair.changes.map((c) => FROM_TO[lang](c.label ? `${c.label}: ` : "", c.from, c.to)).join("; ");
    const first = pair.changes[0]!;
    const rose = numberOf(first.to) > numberOf(first.from);
    const fell = numberOf(first.to) < numberOf(first.from);
    const verdict =
      pair === best.pairs[0] && ask.direction && (rose || fell)
        ? (ask.direction === "up") === rose
          ? YES_WORD[lang]
          : NO_WORD[lang]
        : CHANGED[lang];
    claims.push({
      text: `${verdict}: ${said} (${nameOf(best.older)} → ${nameOf(best.now)}).`,
      citations: [
        { n: pair.old.n, quote: pair.old.unit.text },
        { n: pair.now.n, quote: pair.now.unit.text },
      ],
    });
  }
  return claims;
}

/** Most versioned documents searched inside, and series searched for their other versions, per question. */
const MAX_VERSIONED = 3;

/** Is a document one version of a series: its title carries a version, edition or date, or another found document shares its series? */
function versioned(item: EvidenceItem, evidence: readonly EvidenceItem[]): boolean {
  const title = item.title ?? item.docId;
  if (titleVersioned(title)) return true;
  return evidence.some(
    (e) => e.docId !== item.docId && e.source === item.source && seriesOf(e.title ?? e.docId) === seriesOf(title),
  );
}

/**
 * The searches a change question needs once the first search found a versioned document: inside each
 * such document for what is asked (the passage stating it may not be the one found first), and in its
 * source for the series' other versions (the question's words without its versions, led by the series'
 * title). Only calls not issued before; empty when nothing found is versioned.
 */
export function versionCalls(state: AgentState, ask: ChangeAsk, k: number): Omit<ToolCallRequest, "callId">[] {
  if (!ask.query) return [];
  const issued = new Set(state.calls.map((c) => callKey(c.call.tool, c.call.args)));
  const docs = new Map<string, EvidenceItem>();
  for (const e of state.evidence) if (!docs.has(e.docId) && versioned(e, state.evidence)) docs.set(e.docId, e);
  const calls: Omit<ToolCallRequest, "callId">[] = [];
  const add = (tool: string, args: Record<string, unknown>) => {
    const key = callKey(tool, args);
    if (issued.has(key)) return;
    issued.add(key);
    calls.push({ tool, args, subQuestion: 0 });
  };
  for (const item of [...docs.values()].slice(0, MAX_VERSIONED)) {
    add("search_by_source", { docId: item.docId, source: item.source, query: ask.query, k });
    add("search", { corpus: item.source, query: `${seriesOf(item.title ?? item.docId)} ${ask.query}`, k });
  }
  // A statement one version gives about what is asked, whose counterpart in the other version was not found:
  // search the other version for the statement's own words.
  for (const [older, newer] of versionPairs(state.evidence).slice(0, MAX_VERSIONED)) {
    for (const [from, to] of [
      [older, newer],
      [newer, older],
    ] as const) {
      const theirs = unitsOfDoc(state.evidence, to.docId);
      for (const v of topUnits(unitsOfDoc(state.evidence, from.docId), ask.attribute)) {
        if (theirs.some((t) => counterparts(v.unit, t.unit))) continue;
        const words = queryTerms(`${v.unit.header?.join(" ") ?? ""} ${v.unit.text}`).filter(
          (t) => !/\d/.test(t) || /\p{L}/u.test(t),
        );
        add("search_by_source", {
          docId: to.docId,
          source: to.source,
          query: words.slice(0, MAX_QUERY_WORDS).join(" "),
          k,
        });
      }
    }
  }
  return calls;
}

/** Most words of a statement searched for in the other version. */
const MAX_QUERY_WORDS = 16;
/** Statements per version whose counterparts are looked for. */
const TOP_UNITS = 3;

/** Two versions of one statement: rows of the same key under the same columns, or sentences mostly alike. */
export function counterparts(a: Unit, b: Unit): boolean {
  if (a.header && b.header) {
    const x = cellsOf(a.text)[0] ?? "";
    return x !== "" && x.toLowerCase() === (cellsOf(b.text)[0] ?? "").toLowerCase();
  }
  if (a.header || b.header) return false;
  return jaccard(wordsOf(a.text), wordsOf(b.text)) >= SAME_STATEMENT;
}

/** The units of a version that say most about what is asked (its section and columns count), best first. */
function topUnits(units: VersionUnit[], attribute: readonly string[]): VersionUnit[] {
  const asked = new Set(attribute);
  const said = (v: VersionUnit) =>
    [...termSet(`${v.item.section ?? ""} ${v.unit.header?.join(" ") ?? ""} ${v.unit.text}`)].filter((t) => asked.has(t))
      .length;
  return units
    .filter((v) => /\d/.test(v.unit.text) && said(v) > 0)
    .sort((a, b) => said(b) - said(a))
    .slice(0, TOP_UNITS);
}
