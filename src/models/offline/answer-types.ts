import { labelTerms } from "../../text/overlap.js";
import type { AnswerType } from "./analyze.js";
import { fieldsOf } from "./value-span.js";

/**
 * Words of a field's label that make its value a place (English, German, Chinese, Japanese): a record's
 * "destination_country" or a table's "Site" column answers "where", its "shipment_id" does not.
 */
const PLACE_LABELS = new Set([
  ..."country city town destination origin location address hub site port region place venue depot warehouse station terminal airport".split(
    " ",
  ),
  ..."land stadt ort ziel zielland standort hafen lager adresse".split(" "),
  ..."国家 城市 地点 地址 目的地 国 都市 場所 所在地 住所 拠点 仕向地".split(" "),
]);

/** Words of a label that make its place where something came from ("origin_hub", "Herkunftsland"). */
const ORIGIN_LABELS = new Set(
  "origin source from herkunft herkunftsland ursprung abgangsort 出発地 始发地 原产地".split(" "),
);
/** A question asking where something came from ("where ... from", "woher", "から", "从"). */
const FROM_CUE = /\b(?:from|woher|von wo)\b|から|从|來自|来自/iu;

/** Is the label's place where something came from, and the question does not ask that? */
export function unaskedOrigin(label: string, question: string): boolean {
  if (FROM_CUE.test(question)) return false;
  for (const t of labelTerms(label)) if (ORIGIN_LABELS.has(t)) return true;
  return false;
}

/** Does a field label name a place ("destination_country", "Site", "Zielland")? */
export function placeLabel(label: string): boolean {
  for (const t of labelTerms(label)) if (PLACE_LABELS.has(t)) return true;
  return false;
}

const MONTH =
  /\b(?:jan(?:uary|uar)?|feb(?:ruary|ruar)?|mar(?:ch)?|märz|apr(?:il)?|may|mai|jun(?:e|i)?|jul(?:y|i)?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|okt(?:ober)?|nov(?:ember)?|dec(?:ember)?|dez(?:ember)?)\b/iu;
const WEEKDAY =
  /\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)s?\b/i;

/** A number with a unit of time: English and German (ordered longest first), then Chinese and Japanese. */
const LATIN_DURATION =
  /\d+(?:[.,]\d+)?\s*(?:ms|milliseconds?|millisekunden|s|secs?|seconds?|sek|sekunden?|mins?|minutes?|minuten?|h|hrs?|hours?|std|stunden?|days?|business days|tagen?|tage|werktagen?|weeks?|wochen?|months?|monaten?|monate|years?|jahren?|jahre)\b/iu;
const CJK_DURATION = /\d+(?:[.,]\d+)?\s*(?:毫秒|秒|分钟|分鐘|分|小时|時間|天|日間?|周|週間?|个月|か月|ヶ月|年間?)/u;

/** Last words that make a capitalised phrase an organisation, place or thing rather than a person. */
const NOT_PERSON =
  /\b(?:team|service|gateway|scheduler|station|stand|store|inc|ltd|llc|company|corp|group|department|university|college|school|project|api|policy|bank|committee|council|agency|office|center|centre|river|city|county|state|street|airport|band|records|league|club|system|platform|engine|desk|queue|dashboard)s?$/i;

const NAME = /\b\p{Lu}\p{Ll}+(?:[ -]\p{Lu}[\p{Ll}'’-]+)+\b/gu;

/**
 * Does this text contain the kind of thing the question asks for? Names already in `known` (the question,
 * the query that found the text) do not count as an answer to "who".
 */
export function hasAnswerType(text: string, type: AnswerType, known = ""): boolean {
  switch (type) {
    case "person": {
      const lowerKnown = known.toLowerCase();
      const fresh = [...text.matchAll(NAME)].some(
        (m) => !NOT_PERSON.test(m[0]) && !m[0].split(/[ -]/).some((w) => lowerKnown.includes(w.toLowerCase())),
      );
      return fresh || /\p{Script=Han}{2,4}/u.test(text);
    }
    case "date":
      return (
        /\b\d{4}-\d{2}-\d{2}\b|\b(?:1[5-9]|20)\d{2}\b|\b\d{1,2}:\d{2}\b/.test(text) ||
        MONTH.test(text) ||
        WEEKDAY.test(text) ||
        /\d{1,4}\s*[年月日]/u.test(text)
      );
    case "duration":
      return LATIN_DURATION.test(text) || CJK_DURATION.test(text);
    case "number":
      // A standalone number, not the digits of an identifier such as SEV1 or INC-2026-014.
      return /(?<![\p{L}\d_-])\d+(?:[.,]\d+)*(?![\p{L}_-]*\d)/u.test(text);
    case "place": {
      // A record's field or a table cell answers "where" only under a label naming a place; prose may say it
      // in any words (there is no type to check, as for a fact).
      const fields = fieldsOf(text);
      // "Where" asks where it is or goes; where it came from only when the question says "from".
      return fields.length === 0 || fields.some((f) => placeLabel(f.label) && !unaskedOrigin(f.label, known));
    }
    default:
      return true;
  }
}
