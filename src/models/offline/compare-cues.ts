import type { CueTable } from "./question-cues.js";

/**
 * Cues of comparisons between two named things (see analyze.ts and compare-shared.ts), as data per language.
 * Latin cues match whole words; Chinese and Japanese cues match as substrings.
 */

/** The earlier of two dates wins: "which was founded first", "who is older", "welche kam zuerst", "哪个更早". */
export const EARLIER: CueTable = {
  en: ["first", "earlier", "earliest", "older", "oldest", "sooner", "before"],
  de: ["zuerst", "früher", "früheste", "frühesten", "älter", "ältere", "älteste", "ältesten", "erste", "ersten"],
  zh: ["更早", "最早", "先", "更老", "最老", "年长"],
  ja: ["早く", "早い", "最初", "古い", "先に", "年上"],
};

/** The later of two dates wins: "who is younger", "which opened last", "welche ist neuer", "哪个更晚". */
export const LATER: CueTable = {
  en: ["last", "later", "latest", "younger", "youngest", "newer", "newest", "most recent", "more recent"],
  de: ["später", "spätere", "späteste", "jünger", "jüngere", "jüngste", "neuer", "neuere", "neueste", "zuletzt"],
  zh: ["更晚", "最晚", "更新", "最新", "更年轻", "最年轻"],
  ja: ["遅く", "遅い", "最後", "新しい", "年下", "若い"],
};

/** "In the same state", "in derselben Stadt", "同一个省", "同じ県": the attribute both sides must share. */
export const SAME: CueTable = {
  en: ["same", "the same"],
  de: ["gleich", "gleiche", "gleichen", "gleicher", "dieselbe", "denselben", "dasselbe", "derselben", "demselben"],
  zh: ["同一个", "同一", "相同"],
  ja: ["同じ"],
};

/** "Both": each side has the attribute. */
export const BOTH_OF: CueTable = {
  en: ["both"],
  de: ["beide", "beiden", "beides"],
  zh: ["都", "两者都"],
  ja: ["どちらも", "両方", "共に", "ともに"],
};

/** Yes and no, in the question's language: the lead of a verdict. */
export const YES_WORD = { en: "Yes", de: "Ja", zh: "是", ja: "はい" } as const;
export const NO_WORD = { en: "No", de: "Nein", zh: "否", ja: "いいえ" } as const;
