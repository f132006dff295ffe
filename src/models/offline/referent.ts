import type { AgentState } from "../../spec/engine.js";
import { mentions } from "../../text/entities.js";
import { fold, termSet } from "../../text/overlap.js";
import { queryTerms } from "../../text/tokenize.js";
import { fieldLine } from "./bridge-type.js";
import { callsForPart, fullText, passagesOf } from "./evidence-view.js";
import type { Lang } from "./question-cues.js";

/** Demonstratives that point back at a thing by its kind ("that carrier", "diese Abteilung"). */
const DEMONSTRATIVE: Partial<Record<Lang, RegExp>> = {
  en: /(^|[^\p{L}\p{N}])(that|this|those|these)\s+([\p{L}][\p{L}\p{N}-]*)/giu,
  de: /(^|[^\p{L}\p{N}])(dieser|diese|dieses|diesem|diesen|jener|jene|jenes|jenem|jenen)\s+(\p{Lu}[\p{L}\p{N}-]*)/gu,
};

/**
 * The kind a later clause names the thing it refers back to by: the noun after a demonstrative that is no
 * relative pronoun ("what is that depot's phone number" -> ["depot"]; not "the team that owns it", where
 * "that" follows a noun and opens a clause). Empty when the clause refers back by a bare pronoun, or in a
 * language without such a demonstrative here.
 */
export function referredKind(clause: string, lang: Lang): string[] {
  const pattern = DEMONSTRATIVE[lang];
  if (!pattern) return [];
  for (const m of clause.matchAll(new RegExp(pattern.source, pattern.flags))) {
    const noun = m[3]!.replace(/['’]s$/u, "");
    if (queryTerms(noun).length === 0) continue;
    const before = clause.slice(0, m.index + m[1]!.length).trim();
    const previous = before.split(/\s+/).at(-1) ?? "";
    // "<noun> that <verb>" is a relative clause, not a pointer back.
    if (lang === "en" && previous && queryTerms(previous).length > 0 && !/[,;:]$/.test(previous)) continue;
    return [...termSet(noun)];
  }
  return [];
}

/** A record's `field: value` line or a two-cell table row (`| Owning depot | Quarrow |`): its field and value. */
function fieldOf(line: string): { name: string[]; value: string } | undefined {
  const t = line.trim();
  if (t.startsWith("|")) {
    const cells = t
      .replace(/^\||\|$/g, "")
      .split("|")
      .map((c) => c.trim().replace(/[*`]/g, ""));
    if (cells.length !== 2 || !cells[0] || !cells[1] || /^[-:\s]+$/.test(cells[1])) return undefined;
    return { name: [...termSet(cells[0].replace(/[_-]+/g, " "))], value: cells[1] };
  }
  return fieldLine(t);
}

/** Longest value that can name the referred thing (characters); longer ones are descriptions. */
const MAX_REFERENT = 60;

/**
 * The values the passages give under a field named by the kind ("carrier: Zuid Trans" for "that carrier",
 * "| Owning team | Platform |" for "that team"), in order, distinct.
 */
export function kindValues(kind: readonly string[], passages: readonly { text: string }[]): string[] {
  const wanted = new Set(kind.map(fold));
  const out: string[] = [];
  for (const p of passages) {
    for (const line of p.text.split("\n")) {
      const field = fieldOf(line);
      if (!field?.name.some((w) => wanted.has(w))) continue;
      const value = field.value.trim();
      if (value.length === 0 || value.length > MAX_REFERENT || !/\p{L}/u.test(value)) continue;
      if (!out.some((v) => v.toLowerCase() === value.toLowerCase())) out.push(value);
    }
  }
  return out;
}

/**
 * What a later part's "that <kind>" stands for: the one value of a field of that kind in the evidence the
 * first part's chain reached (passages naming a name the first part gives or a link one of its hops followed),
 * latest hop first. A later clause that points back by kind asks about the first part's answer ("which depot
 * ..., and what is that depot's phone number"), not about the first part's own names. Undefined when the
 * chain's evidence gives no such value, or several at the same hop (no telling which).
 */
export function referent(
  state: AgentState,
  kind: readonly string[],
  first: { entities: readonly string[] },
): string | undefined {
  if (kind.length === 0) return undefined;
  const records = callsForPart(state, 0).filter((r) => r.passageKeys.length > 0);
  const links = [...first.entities, ...records.flatMap((r) => (r.call.follows ? [r.call.follows] : []))];
  const steps = [...new Set(records.map((r) => r.step))].sort((a, b) => b - a);
  for (const step of steps) {
    const passages = records
      .filter((r) => r.step === step)
      .flatMap((r) => passagesOf(state, r, 3).map((x) => x.passage))
      .filter((p) => links.some((l) => mentions(fullText(p), l)));
    const values = kindValues(kind, passages).filter((v) => !first.entities.some((e) => mentions(v, e)));
    if (values.length === 1) return values[0];
    if (values.length > 1) return undefined;
  }
  return undefined;
}

/** Has a search of this part started from its referent (the thing it points back to)? */
export function referentSearched(queries: readonly string[], thing: string): boolean {
  const t = thing.trim().toLowerCase();
  return queries.some((q) => q.trim().toLowerCase().startsWith(t));
}
