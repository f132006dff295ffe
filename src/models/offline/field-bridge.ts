import { mentions } from "../../text/entities.js";
import { fold } from "../../text/overlap.js";
import { newEntities } from "./route.js";

/** A `field: value` line of a record (a table row, a JSON line's fields). */
export const FIELD_LINE = /^\s*([\p{L}][\p{L}\d _-]{0,30}):\s+/u;

/** Where a unit's names are: the value of a `field: value` line (the field's name is no entity), else all of it. */
export function valuePart(unit: string): string {
  const field = FIELD_LINE.exec(unit);
  return field ? unit.slice(field[0].length) : unit;
}

/** Longest field value (characters, words) that can stand for a thing the next hop looks up. */
const MAX_VALUE_CHARS = 40;
const MAX_VALUE_WORDS = 4;

export interface FieldBridge {
  /** The field's value: the thing a record points at (its hub, its carrier, its owner). */
  value: string;
  /**
   * How well the value fits as a bridge, added to the unit's score: the share of the field name's words the
   * question asks about, less `genericPenalty` for a value written in lower case only (a category, a level,
   * a language code: shared by many records, a page of its own is unlikely).
   */
  fit: number;
}

/**
 * The value of a record's `field: value` line as a bridge, when it can name a thing: short, holding a letter,
 * not a date or a number, not a name the question already gives. Codes ("LYS") and names need not look like
 * entities to the extractor: in a record the field says what they are.
 */
export function fieldBridge(
  unit: string,
  question: string,
  partTerms: readonly string[],
  genericPenalty: number,
): FieldBridge | undefined {
  const field = FIELD_LINE.exec(unit);
  if (!field) return undefined;
  const value = unit.slice(field[0].length).trim();
  if (value.length === 0 || value.length > MAX_VALUE_CHARS) return undefined;
  if (value.split(/\s+/).length > MAX_VALUE_WORDS) return undefined;
  // A figure or date ("12 kg", "2026-03-11") is a value, not a thing; codes with digits are entities already.
  if (!/\p{L}/u.test(value) || /\d/.test(value)) return undefined;
  if (mentions(question, value)) return undefined;
  const name = field[1]!
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map(fold);
  const asked = new Set(partTerms.map(fold));
  const fit = name.length === 0 ? 0 : name.filter((w) => asked.has(w)).length / name.length;
  const generic = value === value.toLowerCase() ? genericPenalty : 0;
  return { value, fit: fit - generic };
}

/**
 * The names a unit gives for the next hop: entities of its value part, and with `fields`, the value of a
 * record's field line (see `fieldBridge`). Each with its fit (0 for extracted entities).
 */
export function unitBridges(
  unit: string,
  question: string,
  partTerms: readonly string[],
  options: { fields: boolean; genericPenalty: number },
): FieldBridge[] {
  const out: FieldBridge[] = newEntities(valuePart(unit), question).map((value) => ({ value, fit: 0 }));
  if (!options.fields) return out;
  const field = fieldBridge(unit, question, partTerms, options.genericPenalty);
  if (field && !out.some((b) => b.value.toLowerCase() === field.value.toLowerCase())) out.push(field);
  else if (field) {
    const same = out.find((b) => b.value.toLowerCase() === field.value.toLowerCase());
    if (same) same.fit = field.fit;
  }
  return out;
}
