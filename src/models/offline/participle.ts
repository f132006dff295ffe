import type { Lang } from "./question-cues.js";

/**
 * A thing the question describes by a participle instead of naming it: "a label started by <name>", "the
 * man born in <town>", "der von <Name> gegründete Verlag", "ein Dorf, gelegen an <Fluss>". Like a relative
 * clause ("the network that <name> founded"), it is a link of a chain: the described thing is found first
 * (from what the clause names), and what is asked of it (or of the thing it belongs to) after.
 */
export interface ParticipleClause {
  /** Offset of the described thing's determiner ("a network", "der ... Verlag"). */
  start: number;
  /** Offset of the participle ("founded", "gegründete"). */
  at: number;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/** Words that open a described thing (articles). */
const DETERMINERS: Record<"en" | "de", ReadonlySet<string>> = {
  en: new Set(["a", "an", "the"]),
  de: new Set(["der", "die", "das", "dem", "den", "des", "ein", "eine", "einem", "einen", "einer", "eines"]),
};

/**
 * Words that make a participle a verb of the main clause ("was founded by", "wurde gegründet") or open a
 * clause of its own: between the determiner and the participle, no clause is described.
 */
const VERBISH: Record<"en" | "de", ReadonlySet<string>> = {
  en: new Set(
    "is was were are be been being has have had do does did will would can could may might that which who whom whose where when and or".split(
      " ",
    ),
  ),
  de: new Set("ist war waren sind wird wurde wurden worden hat hatte haben sein und oder der die das".split(" ")),
};

/** Prepositions that tie a participle to what describes the thing ("founded BY", "born IN"). */
const PREPOSITIONS: Record<"en" | "de", ReadonlySet<string>> = {
  en: new Set(["by", "in", "at", "from", "on", "for", "near", "under"]),
  de: new Set(["von", "vom", "in", "im", "am", "an", "aus", "bei", "beim", "durch", "auf", "unter"]),
};

/** English past participles that do not end in "-ed". */
const IRREGULAR = new Set(
  "born made built held led sung sold won known written drawn shown given taken begun run sent found bought brought thrown grown seen spoken worn borne set put shot kept told".split(
    " ",
  ),
);

/** Most words between the determiner and the participle ("a small Welsh rowing club founded"). */
const MAX_GAP = 4;

function isParticiple(word: string, lang: "en" | "de", inflected: boolean): boolean {
  if (lang === "en") return IRREGULAR.has(word) || (word.length > 4 && word.endsWith("ed"));
  // German: "gegründet", "geboren" after the noun; "gegründete", "geborenen" before it (inflected).
  return inflected ? /^ge\p{L}{2,}(?:t|en)(?:e|en|em|er|es)$/u.test(word) : /^ge\p{L}{2,}(?:t|en)$/u.test(word);
}

/**
 * The first participle clause describing a thing in the question. English: a
 * determiner, at most four words without a verb, then a participle and a preposition ("a label started
 * by"). German: the same order ("ein Verlag, gegründet von"), or the participle inflected before its noun
 * with a preposition between ("der von <Name> gegründete Verlag"). One pass over the words, each looking
 * back at most `MAX_GAP` words.
 */
export function participleClause(text: string, lang: Lang): ParticipleClause | undefined {
  if (lang !== "en" && lang !== "de") return undefined;
  const words = [...text.matchAll(WORD)].map((m) => ({ word: m[0].toLowerCase(), start: m.index }));
  const determiners = DETERMINERS[lang];
  const verbish = VERBISH[lang];
  const preps = PREPOSITIONS[lang];
  for (let i = 2; i < words.length; i++) {
    const word = words[i]!.word;
    const next = words[i + 1]?.word;
    const after = next !== undefined && preps.has(next) && isParticiple(word, lang, false);
    const before = lang === "de" && isParticiple(word, lang, true);
    if (!after && !before) continue;
    let prepBetween = false;
    for (let j = i - 1; j >= Math.max(0, i - 1 - MAX_GAP); j--) {
      const w = words[j]!.word;
      if (determiners.has(w) && j < i - 1) {
        if (after || prepBetween) return { start: words[j]!.start, at: words[i]!.start };
        break;
      }
      if (verbish.has(w)) break;
      if (preps.has(w)) prepBetween = true;
    }
  }
  return undefined;
}
