import type { AnswerType, QuestionPart } from "./analyze.js";

/**
 * Question words that say what kind of answer is wanted, per language, for questions the part's own
 * `answerType` leaves as a plain "fact" (it reads English question words only). Data, not code: a cue is
 * a word (Latin scripts: matched on word boundaries, case-insensitive) or a CJK string (matched anywhere).
 */
const KIND_CUES: { kind: AnswerType; latin: string[]; cjk: string[] }[] = [
  // "Where": a place. Latin cues only at the start ("the depot where ..." is a relative clause).
  { kind: "place", latin: ["where", "wohin", "woher"], cjk: ["哪里", "哪儿", "什么地方", "どこ"] },
  {
    kind: "duration",
    latin: ["wie lange", "wie lang"],
    cjk: ["多久", "多长时间", "多長時間", "何時間", "何日間", "何分", "どのくらいの期間"],
  },
  {
    kind: "date",
    latin: ["wann", "an welchem tag", "in welchem jahr"],
    cjk: ["什么时候", "何时", "哪天", "哪一天", "哪年", "いつ", "何日", "何月", "何年"],
  },
  { kind: "person", latin: ["wer", "wem", "wen"], cjk: ["谁", "誰", "だれ", "どなた"] },
  {
    kind: "number",
    latin: [
      "wie viele",
      "wie viel",
      "wieviel",
      "wieviele",
      "wie hoch",
      "wie groß",
      "wie schwer",
      "wie schnell",
      "wie weit",
    ],
    cjk: [
      "多少",
      "几",
      "多大",
      "多高",
      "多重",
      "多快",
      "いくつ",
      "いくら",
      "何人",
      "何件",
      "何個",
      "何キロ",
      "何メートル",
      "どのくらい",
      "どれくらい",
      "どれだけ",
    ],
  },
  {
    kind: "yesno",
    latin: [
      "ist",
      "sind",
      "hat",
      "haben",
      "kann",
      "können",
      "darf",
      "dürfen",
      "muss",
      "müssen",
      "gibt",
      "wird",
      "war",
      "waren",
    ],
    cjk: ["吗", "嗎", "是否", "能否", "可否"],
  },
];

function hasLatinCue(lower: string, cue: string, atStart: boolean): boolean {
  if (atStart) return lower.startsWith(`${cue} `);
  const at = lower.indexOf(cue);
  if (at < 0) return false;
  const before = at === 0 ? " " : lower[at - 1]!;
  const after = lower[at + cue.length] ?? " ";
  return !/\p{L}/u.test(before) && !/\p{L}/u.test(after);
}

/**
 * The kind of answer a part asks for: its `answerType`, or, when that is a plain "fact", the kind the
 * question words ask for (German, Chinese and Japanese ones; "where" in any of them, a place). Yes/no cues of German count only at the start
 * (verb-first questions); a Chinese 吗 anywhere.
 */
export function answerKindOf(part: Pick<QuestionPart, "text" | "answerType">): AnswerType {
  if (part.answerType !== "fact") return part.answerType;
  const lower = part.text.trim().toLowerCase();
  for (const { kind, latin, cjk } of KIND_CUES) {
    if (cjk.some((c) => lower.includes(c))) return kind;
    if (latin.some((c) => hasLatinCue(lower, c, kind === "yesno" || kind === "place"))) return kind;
  }
  return "fact";
}
