/**
 * Question cues as data: one table per cue (question word and the kind of answer it asks for, polarity,
 * comparison, aggregation, time words, words the evidence need not hold), each in English, German, Chinese
 * and Japanese. Latin-script cues match whole words (a cue of several words matches those words in a row);
 * Chinese and Japanese cues match as substrings, since those languages do not separate words. Every lookup
 * is linear in the text: one pass over its words, or one `indexOf` scan per (constant) cue.
 */

import { type Lang, languageOf } from "./language.js";

export { type Lang, languageOf };
export type CueTable = Readonly<Record<Lang, readonly string[]>>;

const w = (s: string): string[] => s.split("|").filter(Boolean);

/** Question words, and the kind of answer each asks for. `lead` cues count only as a clause's first words. */
export interface AnswerKindCues {
  lead: CueTable;
  any: CueTable;
}

export const PERSON: AnswerKindCues = {
  lead: { en: w("who|whom|whose"), de: w("wer|wem|wen|wessen"), zh: [], ja: [] },
  any: {
    en: w(
      "which person|which engineer|which people|which manager|which lead|which director|what person|name of the person",
    ),
    de: w("welche person|welcher mitarbeiter|welche mitarbeiterin|welcher ansprechpartner"),
    zh: w("谁|哪位|何人|什么人|哪个人"),
    ja: w("誰|だれ|どなた|どの人|担当者は"),
  },
};

export const DATE: AnswerKindCues = {
  lead: { en: w("when"), de: w("wann|seit wann|bis wann"), zh: [], ja: [] },
  any: {
    en: w("what date|what day|what year|what time|on what date|in what year|which date|which year|which day"),
    de: w("welches datum|welchem datum|welchem tag|welches jahr|welchem jahr|um wie viel uhr|an welchem"),
    zh: w("什么时候|何时|哪天|哪一天|哪一年|哪年|几点|什么日期|几月几日|几号"),
    ja: w("いつ|何日|何年|何時|何月|日付は"),
  },
};

export const DURATION: AnswerKindCues = {
  lead: { en: [], de: [], zh: [], ja: [] },
  any: {
    en: w(
      "how long|duration|how many seconds|how many minutes|how many hours|how many days|how many weeks|how many months|how many years",
    ),
    de: w(
      "wie lange|wie viele tage|wie viele stunden|wie viele minuten|wie viele wochen|wie viele monate|wie viele jahre|dauer",
    ),
    zh: w("多久|多长时间|多少天|多少小时|多少分钟|几天|几个小时|几小时|几周|几个月|多少年"),
    ja: w("どのくらいの期間|何日間|何時間|何分|何週間|何か月|何ヶ月|何年間|どれくらいの期間|どのぐらい"),
  },
};

export const NUMBER: AnswerKindCues = {
  lead: { en: [], de: [], zh: [], ja: [] },
  any: {
    en: w(
      "how many|how much|what percentage|what share|what number|what amount|what is the limit|what is the timeout|" +
        "what is the size|what is the maximum|what is the minimum|number of",
    ),
    de: w("wie viele|wie viel|wieviel|wieviele|welcher anteil|wie hoch|wie groß|anzahl|wie schnell"),
    zh: w("多少|几个|几次|几家|几件|几名|几位|百分之几|比例是|多大|多高"),
    ja: w("いくつ|いくら|何件|何個|何人|何台|何回|何キロ|何パーセント|何%|どれだけ|何社|割合"),
  },
};

/** First words of a yes/no question (Latin), or how one ends or is marked (Chinese, Japanese). */
export const YESNO: AnswerKindCues = {
  lead: {
    en: w("is|are|was|were|does|do|did|can|could|has|have|had|will|would|should|may|must"),
    de: w("ist|sind|war|waren|gibt|gab|hat|haben|hatte|kann|können|darf|dürfen|muss|müssen|wird|werden|soll|sollen"),
    zh: [],
    ja: [],
  },
  any: {
    en: [],
    de: [],
    zh: w("吗|是否|能否|可否|是不是|有没有|能不能|可不可以|会不会"),
    ja: w("ますか|できますか|でしょうか"),
  },
};

/** Words naming a measured attribute: "What is the refund timeout" asks for a number. */
export const MEASURE: CueTable = {
  en: w(
    "limit|limits|timeout|timeouts|size|fee|fees|price|cost|amount|percentage|share|number|minimum|maximum|window|latency|" +
      "target|threshold|slo|rate|cap|speed|weight|capacity|value|deadline",
  ),
  de: w(
    "grenze|grenzwert|limit|frist|gebühr|preis|kosten|betrag|anteil|anzahl|höchstgeschwindigkeit|geschwindigkeit|gewicht|kapazität|wert",
  ),
  zh: w("上限|限额|限制|费用|价格|金额|比例|数量|速度|重量|容量|阈值|期限"),
  ja: w("上限|制限|料金|価格|金額|割合|数|速度|重量|容量|しきい値|期限"),
};

/** "Which ...": an entity. */
export const WHICH: AnswerKindCues = {
  lead: { en: w("which"), de: w("welche|welcher|welches|welchen|welchem|wo|wohin|woher"), zh: [], ja: [] },
  any: { en: [], de: [], zh: w("哪个|哪些|哪家|哪里|哪儿|哪|什么地方"), ja: w("どの|どれ|どちら|どこ|何という") },
};

/** Question words that start a new question in a compound one ("..., and who maintains it?"). */
export const WH: CueTable = {
  en: w("who|whom|whose|what|when|where|which|why|how"),
  de: w("wer|wem|wen|wessen|was|wann|wo|wohin|woher|welche|welcher|welches|welchen|welchem|warum|wieso|weshalb|wie"),
  zh: w("谁|什么|何时|哪|为什么|怎么|如何|多少|几"),
  ja: w("誰|何|いつ|どこ|どの|どれ|どちら|なぜ|どう|いくつ|いくら"),
};

/** Words joining two questions: "X, and who ...", "X und wer ...", "X，另外 ...". */
export const JOINERS: CueTable = {
  en: w("and|but|also"),
  de: w("und|aber|sowie|außerdem"),
  zh: w("还有|另外|以及|并且|同时|而且"),
  ja: w("また|そして|それと|あと|さらに"),
};

/** Words that hedge or add to a question after a joiner, before its question word ("and roughly how many"). */
export const HEDGES: CueTable = {
  en: w("roughly|approximately|about|around|exactly|precisely|also|then|now|so"),
  de: w("ungefähr|etwa|circa|genau|auch|dann|jetzt|also"),
  zh: [],
  ja: [],
};

/** Definite articles: "the ticket" in a later clause points back to the ticket an earlier one named. */
export const DEFINITE: CueTable = {
  en: w("the"),
  de: w("der|die|das|den|dem|des"),
  zh: [],
  ja: [],
};

/** Pronouns that point back to an earlier clause's subject. */
export const PRONOUNS: CueTable = {
  en: w("it|its|they|their|them|that|this|these|those|he|she|his|her|there"),
  de: w("er|sie|es|ihn|ihm|ihr|ihre|ihren|sein|seine|dessen|deren|dort|dafür|davon|dabei|diese|dieser|dieses"),
  zh: w("它|它们|他|她|他们|她们|其|该|那里|这个|那个"),
  ja: w("それ|その|そこ|彼|彼女|これ|この|同じ"),
};

/** Negation: the question or a sentence states the opposite polarity. */
export const NEGATION: CueTable = {
  en: w(
    "not|no|never|none|neither|nor|without|cannot|can't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|won't|mustn't|prohibited|forbidden",
  ),
  de: w("nicht|kein|keine|keinen|keinem|keiner|nie|niemals|ohne|weder|verboten|untersagt"),
  zh: w("不|没|没有|无|未|非|禁止|不得|不能|不可"),
  ja: w("ない|ません|なし|不可|禁止|できない|いけない|ず"),
};

/** Comparison: more, and less. */
export const MORE: CueTable = {
  en: w("more|most|longer|longest|larger|largest|bigger|higher|highest|greater|later|heavier|faster|max|maximum"),
  de: w("mehr|meisten|länger|längste|größer|größte|höher|höchste|später|schwerer|schneller|maximal|maximum"),
  zh: w("更多|最多|更长|最长|更大|最大|更高|最高|更晚|更重|更快"),
  ja: w("より多い|最も多い|多い|長い|大きい|高い|遅い|重い|速い|最大|最高|最長"),
};
export const LESS: CueTable = {
  en: w("fewer|less|least|shorter|shortest|smaller|smallest|lower|lowest|earlier|lighter|slower|min|minimum"),
  de: w(
    "weniger|wenigsten|kürzer|kürzeste|kleiner|kleinste|niedriger|niedrigste|früher|leichter|langsamer|minimal|minimum",
  ),
  zh: w("更少|最少|更短|最短|更小|最小|更低|最低|更早|更轻|更慢"),
  ja: w("少ない|短い|小さい|低い|早い|軽い|遅い|最小|最低|最短"),
};

/** Aggregation over many records. */
export const AGGREGATION: CueTable = {
  en: w("how many|number of|count|total|average|mean|sum of|most|fewest|least|maximum|minimum|highest|lowest|share of"),
  de: w(
    "wie viele|wieviele|anzahl|insgesamt|gesamt|summe|durchschnitt|durchschnittlich|meisten|wenigsten|höchste|niedrigste|anteil",
  ),
  zh: w("多少|几个|总共|一共|总计|合计|平均|最多|最少|最高|最低|数量"),
  ja: w("何件|いくつ|合計|総|平均|最も多い|最も少ない|最大|最小|件数|何個"),
};

/** Time words meaning "now" or "lately": the latest evidence answers them; no date to look for. */
export const PRESENT_TIME: CueTable = {
  en: w(
    "these days|nowadays|right now|currently|current|at the moment|at present|today|now|recent|recently|latest|newest",
  ),
  de: w("derzeit|zurzeit|aktuell|aktuelle|aktuellen|momentan|heute|jetzt|neueste|neuesten|gerade|inzwischen"),
  zh: w("目前|现在|当前|最近|最新|如今|现行"),
  ja: w("現在|今|最近|最新|現行|いま"),
};

/** Words asking for an earlier state ("before the update", "previously"): the superseded evidence answers too. */
export const PRIOR_TIME: CueTable = {
  en: w(
    "before the update|before the change|previous|previously|formerly|former|used to|prior|earlier version|old value",
  ),
  de: w("vorher|davor|früher|vorherige|vorherigen|vorheriger|ehemals|bisher|bisherige|vor der änderung|vor dem update"),
  zh: w("之前|以前|原来|原先|此前|更新前|旧版|过去"),
  ja: w("以前|更新前|変更前|従来|前回|旧"),
};

/** Relative periods ("last year", "this quarter"): resolved against the data, never a literal year. */
export const RELATIVE_TIME: CueTable = {
  en: w(
    "last year|this year|next year|last quarter|this quarter|last month|this month|this half-year|this half|last week|this week|yesterday|ytd",
  ),
  de: w(
    "letztes jahr|letzten jahr|dieses jahr|diesem jahr|letzten quartal|diesem quartal|letzten monat|diesem monat|halbjahr|letzte woche|gestern",
  ),
  zh: w("去年|今年|明年|上季度|本季度|上个月|本月|上半年|下半年|上周|本周|昨天"),
  ja: w("昨年|去年|今年|来年|前四半期|今四半期|先月|今月|上半期|下半期|先週|今週|昨日"),
};

/**
 * Words that say how the question is put, not what the evidence must hold: vague modifiers ("major",
 * "recent", "change"), politeness, hedges. The sufficiency check never demands them.
 */
export const FILLER: CueTable = {
  en: w(
    "many|much|long|which|current|currently|normally|roughly|exactly|approximately|actually|still|kind|kinds|type|" +
      "name|named|called|does|did|do|mean|means|example|major|main|key|recent|recently|latest|change|changes|changed|" +
      "new|newest|typical|typically|usually|general|generally|overall|specific|particular|significant|important|" +
      "ahead|advance|whats|anything|something|thing|things|really|quick|quickly|briefly|exact|precise|" +
      "nowadays|max|maximum|min|minimum|total|average|number|count|happened|happen|one|ones",
  ),
  de: w(
    "bitte|kurz|eigentlich|genau|ungefähr|etwa|wichtig|wichtigste|wichtigsten|neu|neue|neuen|neueste|aktuell|" +
      "aktuelle|derzeit|zurzeit|momentan|gerade|denn|mal|eigentlich|sagen|sagt|gibt|passiert|viele|viel|welche|" +
      "welcher|welches|genau|maximal|insgesamt|durchschnittlich|anzahl|änderung|änderungen|lange|lang|" +
      // Auxiliaries, pronouns and prepositions: grammar, which the keyword stop list leaves in.
      "haben|hat|hatte|hatten|sind|war|waren|wird|werden|wurde|wurden|kann|können|darf|dürfen|muss|müssen|soll|" +
      "sollen|gab|man|sie|er|uns|unsere|unser|ihr|ihre|bei|nach|zum|zur|vom|am|an|oder|aber|auch|noch|schon|dann|" +
      "wenn|ob|einen|einem|einer|eines|kein|keine|zu|bis|seit|über|unter|vor|durch|gegen|ohne|um",
  ),
  zh: w("请问|请|一下|大概|具体|主要|目前|现在|最近|告诉我|知道|是什么|有哪些|呢|吗|吧|一共|总共|情况"),
  ja: w(
    "教えてください|教えて|ください|ですか|ますか|でしょうか|でしたか|ましたか|について|最近|現在|主な|具体的に|具体的|なんですか|のは|とは",
  ),
};

function isLatinCue(cue: string): boolean {
  return !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(cue);
}

/** A compiled table: Latin cues by their word sequence, CJK cues as strings. */
interface Compiled {
  latin: Set<string>;
  maxWords: number;
  cjk: string[];
}

/** Compiled tables, by table and by the languages asked for (few combinations: one per question language). */
const compiled = new WeakMap<object, Map<string, Compiled>>();

function compile(table: CueTable, langs: readonly Lang[]): Compiled {
  let byLangs = compiled.get(table);
  if (byLangs === undefined) {
    byLangs = new Map();
    compiled.set(table, byLangs);
  }
  const key = langs.join(",");
  const hit = byLangs.get(key);
  if (hit) return hit;
  const latin = new Set<string>();
  const cjk: string[] = [];
  let maxWords = 1;
  for (const lang of langs) {
    for (const cue of table[lang]) {
      if (isLatinCue(cue)) {
        const normal = cue.toLowerCase();
        latin.add(normal);
        maxWords = Math.max(maxWords, normal.split(" ").length);
      } else cjk.push(cue);
    }
  }
  const out = { latin, maxWords, cjk };
  byLangs.set(key, out);
  return out;
}

const ALL: readonly Lang[] = ["en", "de", "zh", "ja"];
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

export interface CueHit {
  cue: string;
  start: number;
  end: number;
}

/** The Latin words of a text with their offsets (lower case). */
function latinWords(text: string): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(WORD)) {
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(m[0])) continue;
    // "what's", "whom's", "Aerovia's": the word without its clitic, as English question words are written.
    const word = m[0].toLowerCase().replace(/['’]s$/, "");
    out.push({ word, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Every occurrence of the table's cues in the text (for the given languages; default all four). */
export function findCues(text: string, table: CueTable, langs: readonly Lang[] = ALL): CueHit[] {
  const c = compile(table, langs);
  const hits: CueHit[] = [];
  if (c.latin.size > 0) {
    const words = latinWords(text);
    for (let i = 0; i < words.length; i++) {
      let phrase = "";
      for (let n = 0; n < c.maxWords && i + n < words.length; n++) {
        phrase = n === 0 ? words[i]!.word : `${phrase} ${words[i + n]!.word}`;
        if (c.latin.has(phrase)) hits.push({ cue: phrase, start: words[i]!.start, end: words[i + n]!.end });
      }
    }
  }
  for (const cue of c.cjk) {
    let at = text.indexOf(cue);
    while (at >= 0) {
      hits.push({ cue, start: at, end: at + cue.length });
      at = text.indexOf(cue, at + cue.length);
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

export function hasCue(text: string, table: CueTable, langs: readonly Lang[] = ALL): boolean {
  return findCues(text, table, langs).length > 0;
}

/** True when the text's first words are one of the table's cues (Latin cues; for its language). */
export function leadsWith(text: string, table: CueTable, lang: Lang = languageOf(text)): boolean {
  const langs: Lang[] = lang === "de" ? ["de"] : lang === "en" ? ["en"] : [];
  if (langs.length === 0) return false;
  const first = latinWords(text.slice(0, 200))[0];
  if (!first || text.slice(0, first.start).trim().length > 0) return false;
  return findCues(text.slice(0, 200), table, langs).some((h) => h.start === first.start);
}

/** The languages whose cues apply to a text: its own, plus English (questions mix in English terms). */
export function cueLangs(lang: Lang): Lang[] {
  return lang === "en" ? ["en"] : [lang, "en"];
}

/** The text with the table's cues blanked out (same length, so offsets hold). */
export function withoutCues(text: string, table: CueTable, langs: readonly Lang[] = ALL): string {
  const hits = findCues(text, table, langs);
  if (hits.length === 0) return text;
  let out = "";
  let at = 0;
  for (const h of hits) {
    if (h.start < at) continue;
    out += text.slice(at, h.start) + " ".repeat(h.end - h.start);
    at = h.end;
  }
  return out + text.slice(at);
}

/**
 * Words that tie an attribute to the thing it belongs to ("the capital OF X", "Geburtsort VON X", "X的首都",
 * "Xの首都"), or a described thing to its description ("the county IN WHICH X lies", "the country X IS
 * LOCATED IN"). Two of them in one question describe a thing by another thing: a chain of lookups.
 * English possessives ("X's city") count too (see `linkCount` in analyze.ts).
 */
export const LINKS: CueTable = {
  en: w("of|in which|of which|to which|from which|where|whose|located in|based in|situated in"),
  de: w("von|vom|des|dessen|deren|in dem|in der|in welchem|in welcher|wo|liegt|gelegen"),
  zh: w("的|所在|位于"),
  ja: w("の|にある|に位置する"),
};

/** Words before a link that only say what kind of thing is asked ("what KIND of", "welche ART von"): not a link. */
export const LINK_FILLER: CueTable = {
  en: w("kind|type|sort|name|number|amount|lot|part|one|some|any|all|most|many|much|each|both|none|series"),
  de: w("art|name|anzahl|menge|teil|einer|eine|eines|viele|alle"),
  zh: [],
  ja: w("何|どの"),
};
