/**
 * The direct answer sentence: the question turned into a statement with the found value in the place of
 * its question word. Chinese and Japanese ask in place (the value replaces 多少 / いくつ); English and German
 * front the question word, so a subject question ("Who leads X?") or a copula question ("What is X?", "Wer
 * ist X?") is rewritten; any other shape gives the value alone. The word lists are data per language.
 */

import { type Lang, languageOf } from "./language.js";

export { type Lang, languageOf };

/** Question words asked in place, longest first so 多长时间 wins over 多. */
const IN_PLACE: Record<"zh" | "ja", string[]> = {
  zh: [
    "什么时候",
    "多长时间",
    "哪一天",
    "多少",
    "多久",
    "多大",
    "多高",
    "多重",
    "什么",
    "哪个",
    "哪里",
    "哪儿",
    "哪天",
    "何时",
    "谁",
    "几",
  ],
  ja: ["どのくらい", "どれくらい", "どれだけ", "いくつ", "いくら", "だれ", "どなた", "どこ", "いつ", "何", "誰"],
};
/** Question endings dropped (Chinese particles) or made a statement (Japanese ですか -> です). */
const ZH_END = /[吗呢嗎]?\s*[？?]*\s*$/u;
const JA_END = /(?:ですか|ますか|か)?\s*[？?]*\s*$/u;

/** Words that, right after a fronted question word, make it a question with an auxiliary (not a subject). */
const AUX: Record<"en" | "de", Set<string>> = {
  en: new Set("do does did can could will would should shall may might must has have had".split(" ")),
  de: new Set(
    "hat haben hatte hatten kann können konnte muss müssen darf dürfen soll sollen wird werden würde".split(" "),
  ),
};
const COPULA: Record<"en" | "de", Set<string>> = {
  en: new Set(["is", "are", "was", "were"]),
  de: new Set(["ist", "sind", "war", "waren"]),
};
/** Fronted question words that a subject or copula rewrite replaces. */
const FRONT: Record<"en" | "de", RegExp> = {
  en: /^(?:who|what's|what)\s+/iu,
  de: /^(?:wer|was)\s+/iu,
};
/** Question words that can be a sentence's subject before its verb ("Who leads X"); "what" is too often a determiner. */
const SUBJECT: Record<"en" | "de", Set<string>> = { en: new Set(["who"]), de: new Set(["wer"]) };

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const stop = (s: string, lang: Lang) => {
  const body = s.trim().replace(/[\s.。!?？！]+$/u, "");
  return lang === "zh" || lang === "ja" ? `${body}。` : `${body}.`;
};

/** The question as a statement holding `value`, or `undefined` when its shape has no rewrite. */
export function statement(question: string, value: string, lang: Lang = languageOf(question)): string | undefined {
  const q = question.trim().replace(/[?？]+\s*$/u, "");
  if (lang === "zh" || lang === "ja") {
    const cue = IN_PLACE[lang].find((w) => q.includes(w));
    if (!cue) return undefined;
    const at = q.indexOf(cue);
    const replaced = `${q.slice(0, at)}${value}${q.slice(at + cue.length)}`;
    return lang === "zh" ? stop(replaced.replace(ZH_END, ""), lang) : stop(replaced.replace(JA_END, "です"), lang);
  }
  const front = FRONT[lang].exec(q);
  if (!front) return undefined;
  // "What's X" is "what is"; "who's" is as often "whose", so it is not read as a contraction.
  const contracted = /'s\s+$/.test(front[0]);
  const rest = q.slice(front[0].length);
  const words = rest.split(/\s+/).map((w) => w.toLowerCase());
  const next = words[0] ?? "";
  if (contracted || COPULA[lang].has(next)) {
    // "What is the timeout for X" -> "The timeout for X is 45 seconds".
    const verb = contracted ? "is" : next;
    const subject = contracted ? rest : rest.slice(next.length).trim();
    if (!subject) return undefined;
    return stop(`${capitalise(subject)} ${verb} ${value}`, lang);
  }
  // A subject question: "Who leads X" -> "Dana Okafor leads X"; "What fee does X charge" has an auxiliary.
  const wh = front[0].trim().toLowerCase();
  if (!SUBJECT[lang].has(wh) || !next || words.slice(0, 3).some((w) => AUX[lang].has(w) || COPULA[lang].has(w)))
    return undefined;
  return stop(`${capitalise(value)} ${rest}`, lang);
}

/** The direct answer: the statement when the question has a shape for one, else the value alone. */
export function directSentence(question: string, value: string, rewrite = true): string {
  const lang = languageOf(question);
  return (rewrite ? statement(question, value, lang) : undefined) ?? stop(capitalise(value), lang);
}

/** Yes and no in the question's language. */
export const YES_NO: Record<Lang, { yes: string; no: string }> = {
  en: { yes: "Yes", no: "No" },
  de: { yes: "Ja", no: "Nein" },
  zh: { yes: "是", no: "否" },
  ja: { yes: "はい", no: "いいえ" },
};
