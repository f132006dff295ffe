/**
 * Words written with a period inside a sentence, by language, as data for the sentence splitter (ICU's
 * segmenter breaks after each of them: "Dr. | Katrin Albers", "z. B. | Jan"). Lower-cased, without the
 * final period. Words that often end a sentence ("Inc.", "etc.", "usw.") are left out on purpose.
 */
export const ABBREVIATIONS: Readonly<Record<"en" | "de", readonly string[]>> = {
  en: [
    "dr",
    "mr",
    "mrs",
    "ms",
    "prof",
    "st",
    "jr",
    "sr",
    "no",
    "nos",
    "vs",
    "approx",
    "e.g",
    "i.e",
    "cf",
    "fig",
    "dept",
  ],
  de: [
    "dr",
    "prof",
    "hr",
    "fr",
    "nr",
    "bzw",
    "ca",
    "vgl",
    "ggf",
    "evtl",
    "inkl",
    "zzgl",
    "z.b",
    "d.h",
    "u.a",
    "str",
    "abt",
  ],
};

/** Month names that follow a German ordinal day ("am 3. März"), lower-cased. */
export const ORDINAL_MONTHS: readonly string[] = [
  "januar",
  "jänner",
  "februar",
  "märz",
  "april",
  "mai",
  "juni",
  "juli",
  "august",
  "september",
  "oktober",
  "november",
  "dezember",
];

const ABBREVIATION_SET = new Set(Object.values(ABBREVIATIONS).flat());
const MONTH_SET = new Set(ORDINAL_MONTHS);

/** Is this word (lower-cased, without its period) a listed abbreviation? */
export function isAbbreviation(word: string): boolean {
  return ABBREVIATION_SET.has(word.toLowerCase());
}

/** Is this word a month name that follows an ordinal day? */
export function isOrdinalMonth(word: string): boolean {
  return MONTH_SET.has(word.toLowerCase());
}
