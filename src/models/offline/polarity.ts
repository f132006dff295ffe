import { typedSpans } from "./value-span.js";

/**
 * Whether the evidence answers a yes/no question, and how it says so: by a negation (or its absence) in a
 * sentence that states what the question asks, by comparing the question's number with the evidence's, or
 * by comparing dates. `undefined` when the evidence does not state the polarity.
 */
export interface Verdict {
  answer: "yes" | "no";
  by: "statement" | "number" | "date";
}

/** Negation cues per language: whole words for Latin scripts, substrings for CJK. */
const NEGATION = {
  latin: (
    "not no never none cannot can't isn't aren't wasn't weren't doesn't don't didn't won't mustn't shouldn't " +
    "without nor nicht kein keine keinen keinem keiner nie niemals ohne weder verboten unzulässig"
  ).split(" "),
  cjk: ["不", "没", "沒", "无", "無", "未", "禁止", "非", "ない", "ません", "不可", "できず", "ず"],
};

/** Comparison cues before a number, per language: which side of it the question asks about. */
const ABOVE = [
  "more than",
  "over",
  "above",
  "at least",
  "exceed",
  "exceeds",
  "greater than",
  "longer than",
  "mehr als",
  "über",
  "mindestens",
  "länger als",
  "超过",
  "大于",
  "多于",
  "至少",
  "以上",
  "超",
  "より多い",
  "より長い",
];
const BELOW = [
  "less than",
  "under",
  "below",
  "at most",
  "within",
  "fewer than",
  "shorter than",
  "up to",
  "weniger als",
  "unter",
  "höchstens",
  "innerhalb",
  "kürzer als",
  "少于",
  "小于",
  "低于",
  "不超过",
  "以内",
  "以下",
  "未満",
  "より少ない",
  "より短い",
];
const BEFORE = ["before", "by", "prior to", "vor", "bis", "之前", "以前", "前", "まで"];
const AFTER = ["after", "since", "nach", "seit", "之后", "以后", "後", "以降"];

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function hasCue(text: string, cue: string): boolean {
  if (CJK.test(cue)) return text.includes(cue);
  const lower = text.toLowerCase();
  let at = lower.indexOf(cue);
  while (at >= 0) {
    const before = at === 0 ? " " : lower[at - 1]!;
    const after = lower[at + cue.length] ?? " ";
    if (!/[\p{L}']/u.test(before) && !/[\p{L}']/u.test(after)) return true;
    at = lower.indexOf(cue, at + 1);
  }
  return false;
}

export function negated(text: string): boolean {
  return NEGATION.latin.some((c) => hasCue(text, c)) || NEGATION.cjk.some((c) => text.includes(c));
}

/** The cue in the few characters before a span, if any. */
function cueBefore(text: string, start: number, cues: string[]): boolean {
  const window = text.slice(Math.max(0, start - 20), start);
  return cues.some((c) => hasCue(window, c) || (CJK.test(c) && text.slice(start, start + 30).includes(c)));
}

const numeric = (s: string) =>
  Number((/\d+(?:[.,]\d+)*/.exec(s)?.[0] ?? "").replace(/,(?=\d{3}\b)/g, "").replace(",", "."));
const unitOf = (s: string) =>
  s
    .replace(/[\d.,\s$€£¥%-]+/g, " ")
    .trim()
    .toLowerCase();

function byNumber(question: string, evidence: string): Verdict | undefined {
  const q = typedSpans(question, "number")[0];
  if (!q) return undefined;
  const qText = question.slice(q.start, q.end);
  const qValue = numeric(qText);
  const e = typedSpans(evidence, "number").find((m) => {
    const u = unitOf(evidence.slice(m.start, m.end));
    return u === unitOf(qText) || u === "" || unitOf(qText) === "";
  });
  if (!e || !Number.isFinite(qValue)) return undefined;
  const eValue = numeric(evidence.slice(e.start, e.end));
  if (!Number.isFinite(eValue)) return undefined;
  const above = cueBefore(question, q.start, ABOVE);
  const below = cueBefore(question, q.start, BELOW);
  const yes = above ? eValue > qValue : below ? eValue <= qValue : eValue === qValue;
  return { answer: yes ? "yes" : "no", by: "number" };
}

const isoDay = (s: string) => /\d{4}-\d{2}-\d{2}/.exec(s)?.[0] ?? /\b(?:19|20)\d{2}\b/.exec(s)?.[0];

function byDate(question: string, evidence: string): Verdict | undefined {
  const q = typedSpans(question, "date")[0];
  const e = typedSpans(evidence, "date")[0];
  if (!q || !e) return undefined;
  const qd = isoDay(question.slice(q.start, q.end));
  const ed = isoDay(evidence.slice(e.start, e.end));
  if (!qd || !ed || qd.length !== ed.length) return undefined;
  const before = cueBefore(question, q.start, BEFORE);
  const after = cueBefore(question, q.start, AFTER);
  if (!before && !after) return undefined;
  const yes = before ? ed < qd : ed > qd;
  return { answer: yes ? "yes" : "no", by: "date" };
}

/**
 * The verdict of one evidence sentence on a yes/no question. Numbers and dates decide when the question
 * holds one; otherwise the sentence must state what is asked (`covered`, the share of the question's
 * asked terms it holds, at least `minCoverage`), and it says yes unless exactly one of the question and
 * the sentence is negated.
 */
export function verdictOf(
  question: string,
  evidence: string,
  covered: number,
  minCoverage: number,
): Verdict | undefined {
  const numberVerdict = byDate(question, evidence) ?? byNumber(question, evidence);
  if (numberVerdict) return numberVerdict;
  if (covered < minCoverage) return undefined;
  return { answer: negated(question) === negated(evidence) ? "yes" : "no", by: "statement" };
}
