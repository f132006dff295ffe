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

/**
 * Rating words on one ordered scale, lowest first (severity, priority, risk, impact): "high" outranks
 * "medium". A field's whole value must be one of them ("severity: high"), so prose that says "high" is no rating.
 */
export const LEVELS: readonly (readonly string[])[] = [
  ["very low", "sehr niedrig", "最低", "極低"],
  ["low", "minor", "niedrig", "gering", "低", "軽微", "轻微"],
  ["medium", "moderate", "mittel", "mittlere", "中", "中程度", "中等"],
  ["high", "major", "hoch", "hohe", "erheblich", "高", "重大"],
  ["very high", "critical", "severe", "sehr hoch", "kritisch", "schwer", "最高", "致命的", "严重", "深刻"],
];

/** "Compare A and B", "how do A and B differ", "A und B vergleichen", "A和B的区别", "AとBを比較": a comparison of two named things with "and". */
export const COMPARE: CueTable = {
  en: ["compare", "compared", "comparison", "differ", "difference", "differences", "versus", "vs"],
  de: [
    "vergleiche",
    "vergleichen",
    "verglichen",
    "vergleich",
    "unterscheiden",
    "unterscheidet",
    "unterschied",
    "unterschiede",
  ],
  zh: ["比较", "对比", "相比", "区别", "差别", "不同"],
  ja: ["比較", "比べ", "違い", "差"],
};

/** "Between A and B, which …": the two sides follow the cue. */
export const BETWEEN: CueTable = { en: ["between"], de: ["zwischen"], zh: [], ja: [] };

/** Words that open the phrase naming one side ("the quotas on level A and level B"): its left edge. */
export const SIDE_OPENERS: CueTable = {
  en: ["for", "in", "of", "at", "from", "on", "under"],
  de: ["für", "in", "im", "von", "vom", "bei", "beim", "unter"],
  zh: [],
  ja: [],
};

/** "How did X change", "was hat sich geändert", "有什么变化", "どう変わった": a question about a change between versions. */
export const CHANGE: CueTable = {
  en: ["change", "changed", "changes", "changing"],
  de: ["geändert", "verändert", "änderung", "änderungen", "ändern", "verändern"],
  zh: ["变化", "改变", "变更", "变了"],
  ja: ["変更", "変わ", "変化"],
};

/** "Did X go up", "ist X gestiegen", "提高了吗", "上がった": a change asked with its direction, upwards. */
export const UP: CueTable = {
  en: ["go up", "went up", "gone up", "increase", "increased", "rise", "rose", "risen", "raised", "grow", "grew"],
  de: ["gestiegen", "steigen", "erhöht", "erhöhen", "angehoben", "gewachsen"],
  zh: ["提高", "增加", "上升", "上调"],
  ja: ["上が", "増え", "引き上げ", "増加"],
};

/** "Did X go down", "ist X gesunken", "降低了吗", "下がった": a change asked with its direction, downwards. */
export const DOWN: CueTable = {
  en: [
    "go down",
    "went down",
    "gone down",
    "decrease",
    "decreased",
    "drop",
    "dropped",
    "fell",
    "fall",
    "lowered",
    "reduced",
  ],
  de: ["gesunken", "sinken", "gesenkt", "senken", "verringert", "reduziert"],
  zh: ["降低", "减少", "下降", "下调"],
  ja: ["下が", "減っ", "引き下げ", "減少"],
};
