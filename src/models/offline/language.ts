/**
 * The one language detector of the offline engine: scripts decide Chinese and Japanese (kana means
 * Japanese, Han without kana Chinese); for Latin script, German and English each score their distinctive
 * words, weighted by how distinctive they are, and German also scores its letters (ä ö ü ß). A word both
 * languages use ("was", "die", "am") weighs little on either side, so "What was …" stays English while
 * "Was kostet …" is German. Looks at the first words only: linear and bounded.
 */
import { LANGUAGE_DETECTION } from "./settings.js";

export type Lang = "en" | "de" | "zh" | "ja";

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;
const GERMAN_LETTERS = /[äöüß]/i;

const list = (s: string): string[] => s.split("|");

/** Words only German uses among the two (strong), and words German shares with English spelling (weak). */
const GERMAN = {
  strong: list(
    "ist|sind|und|der|das|nicht|wie|wer|wem|wen|wessen|welche|welcher|welches|welchen|welchem|wann|wo|wieviel|" +
      "wieviele|gibt|bei|für|mit|nach|zum|zur|von|vom|im|dem|den|des|ein|eine|einen|einer|eines|einem|wird|werden|" +
      "wurde|wurden|waren|darf|dürfen|muss|müssen|kann|können|auf|aus|sie|ich|wir|uns|unsere|unser|bitte|gilt|" +
      "gelten|seit|ob|oder|aber|auch|sich|noch|nur|zwischen|über|unter|haben|hat|viele|wieviel|welchem|gab|jahr|liegt",
  ),
  weak: list("die|was|war|am|an|so|es|er|man|will|alle|bis|also|hand|um"),
};

/** Words only English uses among the two (strong), and English words German also spells (weak). */
const ENGLISH = {
  strong: list(
    "the|is|are|what|which|who|whom|whose|how|does|did|do|of|and|were|to|for|with|this|that|these|those|when|" +
      "where|why|has|have|on|at|by|from|many|much|there|their|its|it|be|been|or|not|any|after|before|than|our|you",
  ),
  weak: list("was|in|an|so|will|man|hand|also|am"),
};

function weights(table: { strong: string[]; weak: string[] }): Map<string, number> {
  const out = new Map<string, number>();
  for (const word of table.weak) out.set(word, LANGUAGE_DETECTION.weakWord);
  for (const word of table.strong) out.set(word, LANGUAGE_DETECTION.strongWord);
  return out;
}

const GERMAN_WEIGHTS = weights(GERMAN);
const ENGLISH_WEIGHTS = weights(ENGLISH);

/** German and English scores of a Latin-script text (its first `maxWords` words). */
export function latinScores(text: string): { de: number; en: number } {
  let de = GERMAN_LETTERS.test(text.slice(0, LANGUAGE_DETECTION.maxChars)) ? LANGUAGE_DETECTION.germanLetters : 0;
  let en = 0;
  let seen = 0;
  for (const m of text
    .slice(0, LANGUAGE_DETECTION.maxChars)
    .toLowerCase()
    .matchAll(/\p{L}+/gu)) {
    de += GERMAN_WEIGHTS.get(m[0]) ?? 0;
    en += ENGLISH_WEIGHTS.get(m[0]) ?? 0;
    if (++seen >= LANGUAGE_DETECTION.maxWords) break;
  }
  return { de, en };
}

/** The text's language: from its script, else from the weighted German and English words. */
export function languageOf(text: string): Lang {
  if (KANA.test(text)) return "ja";
  if (HAN.test(text)) return "zh";
  const { de, en } = latinScores(text);
  return de > en && de >= LANGUAGE_DETECTION.minGerman ? "de" : "en";
}
