import { looksLikeInstruction } from "../../safety/instruction-like.js";
import type { DraftClaim } from "../../spec/engine.js";
import { extractEntities, mentions } from "../../text/entities.js";
import { coverage, termSet } from "../../text/overlap.js";
import type { AnswerType, QuestionPart } from "./analyze.js";
import { askedTerms, type Candidate } from "./candidates.js";
import { directSentence, type Lang, languageOf, YES_NO } from "./direct.js";
import { cellsOf, selfLabelled } from "./evidence-view.js";
import { dateLabel, newer } from "./freshness.js";
import { verdictOf } from "./polarity.js";
import { hasCue, PRIOR_TIME } from "./question-cues.js";
import type { AnswerSettings } from "./settings.js";
import { earnsCitation, supportingUnits } from "./supporting.js";
import { fieldsOf, type ValueSpan, valueSpan } from "./value-span.js";

/** Makes a quoted line readable: a table row reads "Header: cell; ...", list and heading marks go. */
export function readable(quote: string, header?: string[]): string {
  const cells = cellsOf(quote);
  let line = quote;
  if (quote.includes("|") && cells.length >= 2) {
    line =
      header && header.length === cells.length && cells.length > 2
        ? cells.map((c, i) => `${header[i]}: ${c}`).join("; ")
        : !header && selfLabelled(quote)
          ? // A row that carries its headers ("Net sales | 2023: 4,210 | 2022: 3,980"): its label, then its cells.
            `${cells[0]}: ${cells.slice(1).join("; ")}`
          : cells.filter(Boolean).join(": ");
  }
  return line.replace(/^\s*(?:[-*+]|\d+\.|#{1,6})\s+/, "").replace(/\*\*|`/g, "");
}

/** Titles and table headers are data: one that reads like an instruction is never copied into the answer. */
const safeTitle = (c: Candidate) => (c.title && !looksLikeInstruction(c.title) ? c.title : "");
const cite = (c: Candidate) => ({ n: c.n, quote: c.quote });

/**
 * A claim from a chosen sentence: its readable form, led by the document's title when the sentence is short
 * and does not name it. Citation-like markers a passage brings (`[3]`) are removed when the citations are
 * checked, so the answer's only markers are the engine's.
 */
export function claimOf(c: Candidate): DraftClaim {
  const header = c.header && !looksLikeInstruction(c.header.join(" ")) ? c.header : undefined;
  const text = readable(c.quote, header);
  const title = safeTitle(c);
  const titled = title && !mentions(text, title) && text.length < 80;
  // A dated or versioned heading says since when the unit holds: it leads, after the title when that leads.
  const dated = datedHeading(c, text);
  const lead = titled && dated ? `${title}, ${dated}` : titled ? title : dated;
  return { text: lead ? `${lead}: ${text}` : text, citations: [cite(c)] };
}

/** A version ("v2.3") or a full date ("2026-03-01", "3 March 2026") in a heading. */
const VERSION_OR_DATE =
  /(?:^|[^\p{L}\d])v\d+(?:\.\d+)+(?![\d.]*\d)|\b(?:19|20)\d{2}-\d{2}-\d{2}\b|\b\d{1,2}\.? \p{L}{3,9}\.? (?:19|20)\d{2}\b/u;

/**
 * The heading a unit sits under when it dates or versions what the unit states ("## v2.3 (2026-03-01)" over
 * "- Client certificates are required."): a changelog's entry holds since then, which the unit alone does
 * not say. Undefined when the heading has no version or date, reads like an instruction, or the text names it.
 */
export function datedHeading(c: Pick<Candidate, "heading">, text: string): string | undefined {
  const heading = c.heading?.replace(/[*`]/g, "").trim();
  if (!heading || heading.length > 80 || looksLikeInstruction(heading)) return undefined;
  if (!VERSION_OR_DATE.test(heading) || mentions(text, heading)) return undefined;
  return heading;
}

/** The supporting units that earn their citation next to `lead` (all of `rest` when the setting is off). */
const supported = (input: ComposeInput, lead: Candidate[], rest: Candidate[]) =>
  input.settings.citeOnlyWhatAdds
    ? supportingUnits(input.part.text, lead, rest, input.settings.support, askedTerms(input.part))
    : rest;

/** What an older document said, in the question's language. */
const SUPERSEDED: Record<Lang, (old: string, title: string, when: string) => string> = {
  en: (old, title, when) => `This supersedes ${old} in ${title}${when ? ` (${when})` : ""}.`,
  de: (old, title, when) => `Das ersetzt ${old} in ${title}${when ? ` (${when})` : ""}.`,
  zh: (old, title, when) => `此前${title}${when ? `（${when}）` : ""}中为${old}，已被取代。`,
  ja: (old, title, when) => `以前の${title}${when ? `（${when}）` : ""}では${old}でしたが、更新されています。`,
};

/** What a newer document says instead of the older one that answers ("before the update"). */
const LATER: Record<Lang, (value: string, title: string, when: string) => string> = {
  en: (value, title, when) => `It was later changed to ${value} in ${title}${when ? ` (${when})` : ""}.`,
  de: (value, title, when) => `Später geändert auf ${value} in ${title}${when ? ` (${when})` : ""}.`,
  zh: (value, title, when) => `后来在${title}${when ? `（${when}）` : ""}中改为${value}。`,
  ja: (value, title, when) => `その後、${title}${when ? `（${when}）` : ""}で${value}に変更されました。`,
};

interface Valued {
  c: Candidate;
  value: ValueSpan;
}

export interface ComposeInput {
  question: string;
  part: QuestionPart;
  kind: AnswerType;
  /** The units that support the part, best first (one per hop for a chain). */
  chosen: Candidate[];
  /** Every scored unit of the part's evidence, best first. */
  all: Candidate[];
  settings: AnswerSettings;
}

function valueIn(c: Candidate, input: ComposeInput): ValueSpan | undefined {
  const value = valueSpan(c.quote, input.kind, {
    known: input.question,
    asked: askedTerms(input.part),
    header: c.header,
    labelledCells: input.settings.periodCells,
  });
  return value && value.text.length <= input.settings.maxValueLength ? value : undefined;
}

/** A title without its versions, dates and notes in brackets: documents of one series share it. */
export function seriesOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/\([^)]*\)/g, " ")
    .replace(/\.[a-z]{2,4}$/, "")
    .replace(/(?:^|[^\p{L}\d])v(?:ersion)?\s?\d+(?:\.\d+)*/gu, " ")
    .replace(/\b(?:19|20)\d{2}\b|\b(?:edition|ausgabe|version)\b/g, " ")
    .replace(/[^\p{L}\d]+/gu, " ")
    .trim();
}

/** Same series: the same title up to version and date, or (without titles) the same file name. */
const sameSeries = (a: Candidate, b: Candidate) =>
  a.title && b.title ? seriesOf(a.title) === seriesOf(b.title) : seriesOf(a.item.docId) === seriesOf(b.item.docId);

const normValue = (s: string) => s.toLowerCase().replace(/\s+/g, "");

/**
 * Another document of the same series (same source, same title or file name up to version and date) that
 * states a different value for what the part asks: the newer of the two wins, the older is superseded.
 */
function freshest(found: Valued, input: ComposeInput): { winner: Valued; old?: Valued } {
  const { c, value } = found;
  for (const r of input.all) {
    if (r.score < c.score * input.settings.rivalScoreShare) break;
    if (r.item.docId === c.item.docId || r.item.source !== c.item.source || r.asked < c.asked) continue;
    if (!sameSeries(r, c) || !input.part.entities.every((e) => mentions(r.passageText, e))) continue;
    const rv = valueIn(r, input);
    if (!rv || normValue(rv.text) === normValue(value.text)) continue;
    const order = newer(r.item, c.item);
    if (order > 0) return { winner: { c: r, value: rv }, old: found };
    if (order < 0) return { winner: found, old: { c: r, value: rv } };
  }
  return { winner: found };
}

/** Is the unit of the page of something the part names (its title or file name names it)? */
const ofNamedPage = (c: Candidate, part: QuestionPart) =>
  part.entities.some((e) => mentions(c.title, e) || mentions(c.item.docId, e));

/**
 * The same value from the page of what the part names, when the unit found is of another document: a unit
 * of that page stating the value found answers instead (its own value when that holds the one found, as
 * "02:30 UTC" holds "02:30"). The page is the source about the thing asked; the other document repeats it.
 */
export function namedPage(found: Valued, input: ComposeInput): Valued {
  if (!input.settings.citeNamedPage || ofNamedPage(found.c, input.part)) return found;
  for (const r of input.all) {
    if (r.item.docId === found.c.item.docId || !ofNamedPage(r, input.part)) continue;
    if (!mentions(r.quote, found.value.text)) continue;
    const own = valueIn(r, input);
    return { c: r, value: own && mentions(own.text, found.value.text) ? own : found.value };
  }
  return found;
}

/**
 * The unit whose value answers: a value under a label that names what is asked ("Team lead: ...") beats one
 * merely of the right kind in prose, first among the chosen units, then among units of the evidence scoring
 * close to the best that mention everything the part names; else the first chosen unit with a value.
 */
export function valueUnit(order: Candidate[], input: ComposeInput): Valued | undefined {
  const asked = askedTerms(input.part);
  const valued = order.flatMap((c) => {
    const value = valueIn(c, input);
    return value ? [{ c, value }] : [];
  });
  // An unlabelled value must come from a unit that itself states most of what is asked, or from a field of the
  // record of what the question names (INC-2026-045's "Duration: 38 minutes"); first in the chosen order.
  const about = (c: Candidate) =>
    input.part.entities.length > 0 && input.part.entities.every((e) => mentions(`${c.item.docId} ${c.title}`, e));
  const trusted = (v: Valued) =>
    coverage(asked, v.c.context) >= input.settings.proseValueCoverage ||
    (fieldsOf(v.c.quote, v.c.header).length > 0 && about(v.c));
  return valued.find((v) => v.value.labelled) ?? valued.find(trusted);
}

/**
 * Does the part start a question of its own (the question's start, or a capitalised clause)? A clause split
 * off mid-sentence ("..., who missed the season") is not rewritten as a statement.
 */
function startsQuestion(question: string, partText: string): boolean {
  const head = partText.trim().slice(0, 24);
  if (question.trim().startsWith(head)) return true;
  return (
    /^\p{Lu}/u.test(head) ||
    !/^\p{L}/u.test(head) ||
    /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(head)
  );
}

/** A unit that names something the part names: without a value to show, only such sentences follow the best. */
const namesPart = (c: Candidate, part: QuestionPart) =>
  part.chain || part.entities.length === 0 || part.entities.some((e) => mentions(c.quote, e));

/** Does a supporting unit say anything the direct answer does not: a name or identifier it leaves out? */
function addsTo(direct: string, c: Candidate): boolean {
  const entities = extractEntities(c.quote).map((e) => e.text);
  return entities.length === 0 ? coverage(c.quote, direct) < 0.5 : entities.some((e) => !mentions(direct, e));
}

/**
 * The claims answering one supported part: a direct answer first (the value of the asked kind, put into
 * the question's own words; or yes/no when the evidence states the polarity), then the supporting
 * sentences the direct answer does not already say, each cited. Without a value the supporting sentences
 * alone answer (what the evidence does say). A newer document of the same series overrides an older one,
 * and the answer says the older value was superseded, citing only the newer one.
 */
export function composePart(input: ComposeInput): DraftClaim[] {
  const { part, kind, chosen, settings } = input;
  const lang = languageOf(part.text);
  if (chosen.length === 0) return [];
  if (kind === "yesno") {
    const [first, ...rest] = chosen as [Candidate, ...Candidate[]];
    const verdict = verdictOf(
      part.text,
      first.quote,
      coverage(askedTerms(part), first.context),
      settings.polarityCoverage,
    );
    const lead = claimOf(first);
    if (verdict) {
      const word = YES_NO[lang][verdict.answer];
      lead.text = lang === "zh" || lang === "ja" ? `${word}。${lead.text}` : `${word}. ${lead.text}`;
    }
    return [lead, ...supported(input, [first], rest).map(claimOf)];
  }
  // One side of a comparison is answered by the comparison's outcome, not by a value of its own.
  if (part.alternative) return [chosen[0]!, ...supported(input, chosen.slice(0, 1), chosen.slice(1))].map(claimOf);
  // A fact or entity has no type to check its value by: only the best unit may give one.
  const typed = kind !== "fact" && kind !== "entity";
  const ranked = part.chain ? [...chosen].reverse() : chosen;
  const order = typed ? ranked : ranked.slice(0, 1);
  const found = valueUnit(order, input);
  if (!found) {
    // Without a value the best sentence answers; others follow when they name what the part names or come from
    // the same passage (a sentence of another document that names nothing asked is more often noise).
    const [first, ...rest] = chosen as [Candidate, ...Candidate[]];
    // A sentence of the document the best one names ("... the painter Jeffrey Smart" -> "Jeffrey Smart") follows.
    const named = (c: Candidate) => c.title.length >= 4 && mentions(first.quote, c.title);
    // A later hop's sentence is what the best one led to (the second fact of a chain the analysis missed).
    const follows = (c: Candidate) => namesPart(c, part) || c.n === first.n || named(c) || c.step > first.step;
    // The last hop (of a chain, or a later step than the best sentence's) is where the loop's search for
    // the head ended: without a value, that sentence is the answer's own and stays cited. A question naming a
    // record (an identifier) is answered from that record: a later step's sentence must earn its citation.
    const last = Math.max(...rest.map((c) => c.step));
    const record = extractEntities(part.text).some((e) => e.type === "identifier");
    const lastHop = (c: Candidate) => c.step === last && (part.chain || (c.step > first.step && !record));
    // A chain's last hop is the answer's own when it is of the bridge the best sentence names (its title, or a
    // passage of its document in the evidence, names it), or a field labelled with what is asked ("carrier: ...");
    // otherwise the last search found another thing's sentence sharing the question's words.
    const bridges = extractEntities(first.quote)
      .map((e) => e.text)
      .filter((e) => !mentions(input.question, e));
    const ofBridge = (c: Candidate) =>
      bridges.some(
        (e) =>
          mentions(c.title, e) || input.all.some((o) => o.item.docId === c.item.docId && mentions(o.passageText, e)),
      );
    const asked = askedTerms(part);
    // How many asked terms the best label of a unit's fields names ("Pager rota" names two of a question
    // asking for a crew's pager rota, "rota" one).
    const distinctAsked = [...new Set(asked)];
    const labelAsks = (c: Candidate) =>
      Math.max(
        0,
        ...fieldsOf(c.quote, c.header).map((f) => {
          const label = termSet(f.label);
          return distinctAsked.filter((t) => label.has(t)).length;
        }),
      );
    // A field labelled with what is asked ends the chain, unless the best sentence is itself such a field
    // naming as much of it (with `labelRivals`): then the later one is another record's value of the same label.
    const firstAsks = settings.labelRivals ? labelAsks(first) : 0;
    const labelled = (c: Candidate) => {
      const n = labelAsks(c);
      return n > 0 && n > firstAsks;
    };
    // A one-hop part's later step is held to the same test (its search may have matched common words
    // elsewhere), or names what the part names that the best sentence's passage does not: the other end of a
    // chain the analysis did not see.
    const namesMore = (c: Candidate) =>
      part.entities.some((e) => mentions(c.quote, e) && !mentions(first.passageText, e));
    const ownHop = (c: Candidate) =>
      part.chain
        ? !settings.lastHopOnBridge || ofBridge(c) || labelled(c)
        : !settings.laterStepOnBridge || ofBridge(c) || labelled(c) || namesMore(c);
    const kept = supported(input, [first], rest.filter(follows));
    return [first, ...rest.filter((c) => kept.includes(c) || (follows(c) && lastHop(c) && ownHop(c)))].map(claimOf);
  }
  const fresh = freshest(found, input);
  // "Before the update": the older document answers and is the one cited; the newer value is named with it.
  const asksPrior = fresh.old !== undefined && settings.priorAnswersFromOlder && hasCue(input.question, PRIOR_TIME);
  const winner = asksPrior ? fresh.old! : fresh.old ? fresh.winner : namedPage(fresh.winner, input);
  const old = asksPrior ? undefined : fresh.old;
  const later = asksPrior ? fresh.winner : undefined;
  // A chain's answer names where it came from: "Dana Okafor (Flight Software Team) leads the team that ...".
  const title = safeTitle(winner.c);
  const via =
    part.chain && title && !mentions(input.question, title) && !mentions(winner.value.text, title) ? ` (${title})` : "";
  const direct = directSentence(part.text, `${winner.value.text}${via}`, startsQuestion(input.question, part.text));
  // The older value is named with the answer, not cited: the citation backs the value that answers, and a
  // superseded document is not evidence for it (citing it would present stale text as support). When the
  // question asks for the earlier state, the roles swap: the older document answers, the newer is named.
  const named = old ?? later;
  const note = named
    ? (lang === "zh" || lang === "ja" ? "" : " ") +
      (old ? SUPERSEDED : LATER)[lang](
        named.value.text,
        safeTitle(named.c) || named.c.item.docId,
        dateLabel(named.c.item) ?? "",
      )
    : "";
  const claims: DraftClaim[] = [{ text: `${direct}${note}`, citations: [cite(winner.c)] }];
  // The value's own sentence when it is prose the direct answer only shortens; a chain's other hops when they
  // add to it. Other sentences of a one-hop part are left out: the answer cites what it uses.
  const bare = !direct.includes(" ") || direct.replace(/[.。]$/, "") === winner.value.text;
  // A one-hop part keeps another sentence only when it bridges: it names something the question names that the
  // answer's own document does not (the first hop of a question the analysis did not see as a chain).
  const bridges = (c: Candidate) =>
    c.step < winner.c.step &&
    input.part.entities.some((e) => mentions(c.quote, e) && !mentions(winner.c.passageText, e));
  // A value read from prose, or from a field whose label does not name what was asked, is shown with its own
  // sentence and the rest of its passage's chosen sentences (same document: no citation of another).
  const sure = winner.value.labelled === true;
  const prose = fieldsOf(winner.c.quote, winner.c.header).length === 0;
  // Another part of the same document that states something asked the value's unit does not ("..., and from
  // what age may a member vote?"): it cites no other source.
  const winnerTerms = termSet(winner.c.context);
  const coversMore = (c: Candidate) =>
    c.item.docId === winner.c.item.docId &&
    askedTerms(part).some((t) => !winnerTerms.has(t) && termSet(c.context).has(t));
  const kept: Candidate[] = [winner.c];
  for (const c of chosen) {
    const keep =
      c === winner.c
        ? (bare || !sure) && prose
        : (!sure && c.n === winner.c.n) || coversMore(c) || (part.chain ? addsTo(direct, c) : bridges(c));
    if (!keep) continue;
    if (c !== winner.c) {
      if (c === named?.c) continue;
      // Another document's sentence is cited only when it adds a constraint or a link (supporting.ts).
      if (settings.citeOnlyWhatAdds && !earnsCitation(part.text, c, kept, settings.support, askedTerms(part))) continue;
      kept.push(c);
    }
    claims.push(claimOf(c));
  }
  return claims;
}
