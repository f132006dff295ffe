import { mentions } from "../../text/entities.js";
import { fold, termSet } from "../../text/overlap.js";
import type { QuestionPart } from "./analyze.js";
import { languageOf } from "./language.js";
import { newEntities } from "./route.js";

/** A `field: value` line of a record (a table row, a JSON line's fields): the field's name and its value. */
const FIELD_LINE = /^\s*([\p{L}][\p{L}\d _-]{0,30}):[ \t]+(\S.*)$/u;

/** Longest field value (characters, words) that can stand for a thing the next hop looks up. */
const MAX_VALUE_CHARS = 40;
const MAX_VALUE_WORDS = 4;

export interface FieldLine {
  /** The field's name, split into folded words ("origin_hub" -> origin, hub). */
  name: string[];
  value: string;
}

/** The field name and value of a record's `field: value` line; undefined for prose. */
export function fieldLine(unit: string): FieldLine | undefined {
  if (unit.includes("\n")) return undefined;
  const m = FIELD_LINE.exec(unit);
  if (!m) return undefined;
  return { name: [...termSet(m[1]!.replace(/[_-]+/g, " "))], value: m[2]!.trim() };
}

/** Where a unit's names are: the value of a `field: value` line (the field's name is no entity), else all of it. */
export function valuePart(unit: string): string {
  return fieldLine(unit)?.value ?? unit;
}

/**
 * The words that say what kind of thing the part's missing link is: the part's terms that are not words of
 * a name the part gives ("county" in "the county in which <town> lies", "hub" in "the hub <order> left from").
 */
export function typeWords(part: Pick<QuestionPart, "terms" | "entities">): Set<string> {
  const named = termSet(part.entities.join(" "));
  return new Set(part.terms.map(fold).filter((t) => !named.has(t)));
}

/**
 * 1 when a bridge candidate is of the kind the question asks for, 0 otherwise: its own name holds one of the
 * part's type words ("<Name> County" for "which county"), or the record field it is the value of is named
 * by one ("origin_hub: <code>" for "the hub where"). A chain goes on through the thing of the asked kind,
 * not through the other names of the same sentence (its country, its publisher's parent).
 */
export function typeFit(entity: string, unit: string, types: ReadonlySet<string>): number {
  if (types.size === 0) return 0;
  for (const w of termSet(entity)) if (types.has(w)) return 1;
  const field = fieldLine(unit);
  if (field && mentions(field.value, entity) && field.name.some((w) => types.has(w))) return 1;
  return 0;
}

/**
 * A record's field value as a bridge although the entity extractor does not see a name in it (a bare code
 * such as a site's three letters, a lower-case carrier name): short, holding a letter, no figure or date,
 * not a name the question gives. A value in lower case only (a status, a category shared by many records)
 * counts only when the field is of the kind asked.
 */
export function fieldValue(unit: string, question: string, types: ReadonlySet<string>): string | undefined {
  const field = fieldLine(unit);
  if (!field) return undefined;
  const { value } = field;
  if (value.length < 3 || value.length > MAX_VALUE_CHARS || value.split(/\s+/).length > MAX_VALUE_WORDS)
    return undefined;
  if (!/\p{L}/u.test(value) || /\d/.test(value)) return undefined;
  if (mentions(question, value)) return undefined;
  const asked = field.name.some((w) => types.has(w));
  if (value === value.toLowerCase() && !asked) return undefined;
  return value;
}

/**
 * The names a unit offers the next hop: the entities of its value part, and the value of a record's field
 * line when it can name a thing (see `fieldValue`). `nounCapitals`: the unit's passage is in a language that
 * capitalises every noun (`nounCapitalsIn`).
 */
export function unitBridges(
  unit: string,
  question: string,
  types: ReadonlySet<string>,
  fields: boolean,
  nounCapitals = false,
): string[] {
  const out = newEntities(valuePart(unit), question, nounCapitals);
  const value = fields ? fieldValue(unit, question, types) : undefined;
  if (value && !out.some((e) => e.toLowerCase() === value.toLowerCase())) out.push(value);
  return out;
}

/**
 * Does a passage's language capitalise every noun (German), with `hop.nounCapitals` on? Its capitalised words
 * are then nouns more often than names, and only marked or multi-word names bridge (entities.ts). The language
 * is the passage's, not the unit's: one short sentence says too little to tell.
 */
export function nounCapitalsIn(passageText: string, on: boolean): boolean {
  return on && languageOf(passageText) === "de";
}
