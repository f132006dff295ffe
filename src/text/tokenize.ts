/**
 * Language-aware word and sentence segmentation, shared by ingest (what the keyword index holds) and
 * retrieval (what a query asks for), so both sides split text the same way. Uses the ICU segmenter built
 * into Node (`Intl.Segmenter`), which splits Chinese and Japanese into dictionary words; runs of CJK
 * characters also yield overlapping character bigrams, so a word segmented differently in a query and a
 * document still matches. Every function here is linear in its input: long texts are segmented in
 * bounded slices (see segment.ts).
 */
import { cjkGlosses, glossOf } from "./lexicon.js";
import { wordSegments } from "./segment.js";
import { type Sentence, splitSentences } from "./sentences.js";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

export interface Word {
  word: string;
  start: number;
  end: number;
}

/** Word-like segments with their offsets, in order. */
export function words(text: string): Word[] {
  const out: Word[] = [];
  for (const seg of wordSegments(text)) {
    if (seg.isWordLike) out.push({ word: seg.segment, start: seg.index, end: seg.index + seg.segment.length });
  }
  return out;
}

export function isCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * Lower case, NFKC, and no possessive: "Eye's" and "Eye" are the same term. A term never holds a space:
 * NFKC spells a few compatibility marks with one ("ͺ" is a space and U+0345), which is dropped, so a term
 * read alone and the same term read among others (the chunker joins and splits words on spaces) agree.
 */
export function normalise(word: string): string {
  const out = word
    .normalize("NFKC")
    .toLowerCase()
    .replace(/['’]s$/, "");
  return out.includes(" ") ? out.replaceAll(" ", "") : out;
}

/** Character bigrams of the CJK runs of a text, in order. */
export function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(CJK_RUN)) {
    const run = match[0];
    for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  }
  return out;
}

/**
 * Index terms of a text: normalised words, plus character bigrams of CJK runs, plus the English gloss of
 * every German, Japanese or Chinese word the lexicon knows (lexicon.ts), so either language finds the other.
 */
export function terms(text: string): string[] {
  return indexTerms(
    words(text).map(({ word }) => normalise(word)),
    text,
  );
}

/**
 * `terms` of a text whose normalised words are already known (the chunker reads them with the sentences):
 * each word and its gloss, then the CJK bigrams and the glosses of the CJK words of `text`.
 */
export function indexTerms(normalised: readonly string[], text: string): string[] {
  const out: string[] = [];
  for (const term of normalised) {
    out.push(term);
    if (CJK.test(term)) continue;
    const gloss = glossOf(term);
    if (gloss && !(gloss.length === 1 && gloss[0] === term)) out.push(...gloss);
  }
  out.push(...cjkBigrams(text));
  for (const match of text.matchAll(GLOSS_RUN)) for (const g of cjkGlosses(match[0])) out.push(...g.gloss);
  return out;
}

/** CJK runs as the lexicon reads them: with the long-vowel and repeat marks inside a word ("フォークリフト"). */
const GLOSS_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\u3005]+/gu;

/**
 * The CJK words the lexicon glosses in a text, and every character bigram both of whose characters lie in
 * such words: their glosses stand for them when a question's terms are listed.
 */
export function glossedBigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of text.matchAll(GLOSS_RUN)) {
    const run = match[0];
    const covered = new Uint8Array(run.length);
    for (const g of cjkGlosses(run)) {
      out.add(run.slice(g.start, g.end));
      covered.fill(1, g.start, g.end);
    }
    for (let i = 0; i + 1 < run.length; i++) if (covered[i] && covered[i + 1]) out.add(run.slice(i, i + 2));
  }
  return out;
}

/** What one pass over a text's words gives: its token tally and its normalised words. */
export interface TextReading {
  tally: TokenTally;
  /** The normalised words, space-joined: `terms` without the CJK bigrams. */
  words: string;
  /** How many words `words` joins. */
  count: number;
}

/** Token tally and index words of a text in one pass, for callers that need both (the chunker). */
export function readText(text: string): TextReading {
  const out: string[] = [];
  let latin = 0;
  for (const seg of wordSegments(text)) {
    if (!seg.isWordLike) continue;
    if (!CJK.test(seg.segment)) latin++;
    out.push(normalise(seg.segment));
  }
  return { tally: { cjk: cjkChars(text), latin }, words: out.join(" "), count: out.length };
}

/** What the keyword index stores for a text: its terms joined by spaces. */
export function searchText(text: string): string {
  return terms(text).join(" ");
}

const STOPWORDS = new Set(
  (
    "a an and are as at be been being but by can could did do does for from had has have how i if in into is it its " +
    "me my of on or our please should so than that the their them then there these they this those to was we were what " +
    "when where which who whom whose why will with would you your about after before between both each more most other " +
    "some such only same just also any all very tell know give show list find " +
    "der die das und ist ein eine einer eines einem einen zu mit von für auf im den dem des wie was wer wo nicht sich es " +
    "的 了 是 在 和 吗 呢 什么 多少 の は が を に で と です ます か"
  ).split(" "),
);

/**
 * Terms of a query worth searching for: normalised, stop words removed, de-duplicated, in order; a CJK
 * word the lexicon glosses gives its gloss instead of its character pairs.
 */
export function queryTerms(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const labels = classLabels(text);
  // A CJK word the lexicon knows is asked for by its gloss, which the index holds next to the word.
  const glossed = glossedBigrams(text);
  for (const term of terms(text)) {
    if ((STOPWORDS.has(term) && !labels.has(term)) || seen.has(term) || glossed.has(term)) continue;
    seen.add(term);
    out.push(term);
  }
  return out;
}

/**
 * Single capital letters that label a class after a word ("tier A", "Klasse B", "plan C"): kept as query
 * terms although "a" is a stop word. A capital at the text's start ("A driver ...") is an article.
 */
function classLabels(text: string): Set<string> {
  const out = new Set<string>();
  let previous: Word | undefined;
  for (const w of words(text)) {
    if (
      previous &&
      /^\p{Lu}$/u.test(w.word) &&
      w.word !== "I" &&
      /^\p{L}{2,}$/u.test(previous.word) &&
      /^\s+$/.test(text.slice(previous.end, w.start))
    ) {
      out.add(normalise(w.word));
    }
    previous = w;
  }
  return out;
}

/** The parts of a token count: CJK characters and other words. Counts of adjacent texts add up. */
export interface TokenTally {
  cjk: number;
  latin: number;
}

/** CJK characters (UTF-16 units) of a text. */
export function cjkChars(text: string): number {
  let cjk = 0;
  for (const match of text.matchAll(CJK_RUN)) cjk += match[0].length;
  return cjk;
}

/** The tally of a text, for summing over pieces before `tokensOf`. */
export function tallyTokens(text: string): TokenTally {
  let latin = 0;
  for (const seg of wordSegments(text)) if (seg.isWordLike && !CJK.test(seg.segment)) latin++;
  return { cjk: cjkChars(text), latin };
}

/** Tokens of a tally: one per CJK character, four per three other words. */
export function tokensOf(tally: TokenTally): number {
  return tally.cjk + Math.ceil((tally.latin * 4) / 3);
}

/** Approximate model tokens: one per CJK character, four per three other words. */
export function countTokens(text: string): number {
  return tokensOf(tallyTokens(text));
}

export type { Sentence } from "./sentences.js";

/** Sentences with offsets (trailing whitespace trimmed), abbreviations kept inside their sentence (sentences.ts). */
export function sentences(text: string): Sentence[] {
  return splitSentences(text);
}
