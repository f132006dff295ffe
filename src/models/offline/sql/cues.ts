/**
 * Words that say what a question over a table computes, in English, German, Chinese and Japanese.
 * Data, not code: a cue is matched as a whole word (Latin script) or as a substring (CJK), lower case.
 */

export type AggregateCue = "count" | "sum" | "avg" | "max" | "min" | "rank" | "share" | "distinct";

export const AGGREGATE_CUES: Record<AggregateCue, readonly string[]> = {
  count: [
    "how many",
    "number of",
    "count",
    "wie viele",
    "wieviele",
    "wie viel",
    "anzahl",
    "多少",
    "几个",
    "几件",
    "数量",
    "何件",
    "何個",
    "何回",
    "何台",
    "いくつ",
    "件数",
  ],
  sum: [
    "total",
    "sum",
    "combined",
    "insgesamt",
    "summe",
    "gesamt",
    "gesamtwert",
    "合计",
    "总共",
    "总计",
    "合計",
    "総額",
  ],
  avg: [
    "average",
    "mean",
    "avg",
    "durchschnitt",
    "durchschnittlich",
    "durchschnittliche",
    "durchschnittlichen",
    "durchschnittlicher",
    "durchschnittliches",
    "平均",
  ],
  max: [
    "most recent",
    "most",
    "highest",
    "largest",
    "biggest",
    "greatest",
    "maximum",
    "max",
    "latest",
    "newest",
    "heaviest",
    "meisten",
    "höchste",
    "höchsten",
    "größte",
    "größten",
    "schwerste",
    "neueste",
    "最多",
    "最高",
    "最大",
    "最も多い",
    "一番多い",
    "最重",
  ],
  min: [
    "fewest",
    "least",
    "lowest",
    "smallest",
    "minimum",
    "min",
    "earliest",
    "oldest",
    "lightest",
    "wenigsten",
    "niedrigste",
    "niedrigsten",
    "kleinste",
    "kleinsten",
    "leichteste",
    "älteste",
    "最少",
    "最低",
    "最小",
    "最も少ない",
    "一番少ない",
    "最轻",
    "最も軽い",
  ],
  rank: [
    "rank",
    "ranking",
    "sort",
    "order by",
    "rangliste",
    "sortiere",
    "sortiert",
    "排名",
    "排序",
    "順位",
    "ランキング",
  ],
  share: [
    "share",
    "percentage",
    "proportion",
    "fraction",
    "percent",
    "anteil",
    "prozent",
    "比例",
    "占比",
    "百分比",
    "割合",
    "比率",
  ],
  distinct: ["distinct", "different", "unique", "verschiedene", "unterschiedliche", "不同", "異なる"],
};

/**
 * Superlatives that name what is measured as well as the direction: `lightest` is the minimum of a weight.
 * The concept is matched against column names (`weight_kg`) by the words in `MEASURE_CONCEPTS`.
 */
export const MEASURE_ADJECTIVES: readonly { cue: string; concept: string; dir: "max" | "min" }[] = [
  { cue: "heaviest", concept: "weight", dir: "max" },
  { cue: "lightest", concept: "weight", dir: "min" },
  { cue: "schwerste", concept: "weight", dir: "max" },
  { cue: "leichteste", concept: "weight", dir: "min" },
  { cue: "最も重い", concept: "weight", dir: "max" },
  { cue: "最も軽い", concept: "weight", dir: "min" },
  { cue: "最重", concept: "weight", dir: "max" },
  { cue: "最轻", concept: "weight", dir: "min" },
  { cue: "most expensive", concept: "value", dir: "max" },
  { cue: "cheapest", concept: "value", dir: "min" },
  { cue: "most valuable", concept: "value", dir: "max" },
  { cue: "teuerste", concept: "value", dir: "max" },
  { cue: "günstigste", concept: "value", dir: "min" },
  { cue: "最も高い", concept: "value", dir: "max" },
  { cue: "最も安い", concept: "value", dir: "min" },
];

/** Words of a column name that say which concept it measures. */
export const MEASURE_CONCEPTS: Record<string, readonly string[]> = {
  weight: ["weight", "kg", "mass", "tonnes", "tons", "gewicht", "重量"],
  value: ["value", "price", "cost", "amount", "eur", "usd", "wert", "preis", "金額", "価格"],
};

/** Verbs that name the measure of a sum or comparison (`weighed more than`, `total weight shipped`). */
export const MEASURE_VERBS: Record<string, readonly string[]> = {
  weight: ["weigh", "weighs", "weighed", "weighing", "wog", "wiegen", "wiegt"],
};

/** Units a question may use for a column measured in another one: factor to the column's unit. */
export const UNIT_FACTORS: readonly { words: readonly string[]; column: string; factor: number }[] = [
  { words: ["tonnes", "tonne", "tons", "ton", "t", "tonnen", "トン", "吨"], column: "kg", factor: 1000 },
  { words: ["kg", "kilograms", "kilogram", "kilo", "kilos", "キロ", "公斤"], column: "kg", factor: 1 },
  { words: ["g", "grams", "gram"], column: "kg", factor: 0.001 },
];

/** Words of a multilingual question that say nothing about which rows (besides the English list in plan-sql). */
export const FILLER_WORDS: readonly string[] = [
  // German
  "wie",
  "viele",
  "welche",
  "welcher",
  "welches",
  "was",
  "gab",
  "gibt",
  "es",
  "im",
  "in",
  "nach",
  "von",
  "aus",
  "ab",
  "gingen",
  "ging",
  "wurden",
  "wurde",
  "sind",
  "ist",
  "hat",
  "haben",
  "hatte",
  "hatten",
  "insgesamt",
  "unsere",
  "unserer",
  "der",
  "die",
  "das",
  "den",
  "dem",
  "des",
  "mit",
  "für",
  "versandt",
  "verschickt",
  "gebucht",
  // English (phrasings of "at the moment", possession, movement)
  "moment",
  "out",
  "into",
  "onto",
  "via",
  "towards",
  "toward",
  "right",
  "currently",
  "our",
  "went",
  "go",
  "goes",
  "left",
  "leave",
  "leaves",
  "sent",
  "shipped",
  "ship",
  "everything",
  "all",
  "logged",
  "recorded",
  "had",
  "got",
];

/** CJK particles and question endings, dropped before the leftover check. */
export const CJK_FILLER: readonly string[] = [
  // direction ("bound for", "sent to"), like English "to" and "from"
  "向け",
  "行き",
  "宛て",
  "への",
  "寄往",
  "发往",
  "运往",
  "ですか",
  "でしたか",
  "ますか",
  "ました",
  "された",
  "されたの",
  "したの",
  "のは",
  "から",
  "まで",
  "には",
  "に",
  "の",
  "は",
  "が",
  "を",
  "で",
  "と",
  "か",
  "は何",
  "了",
  "的",
  "在",
  "从",
  "到",
  "有",
  "是",
];

/**
 * Nouns that name the same kind of row or column across languages (and common English synonyms): a table
 * or column named by one member is named by all. Each group is one meaning.
 */
export const NOUN_SYNONYMS: readonly (readonly string[])[] = [
  [
    "shipment",
    "shipments",
    "consignment",
    "consignments",
    "sendung",
    "sendungen",
    "出荷",
    "発送",
    "貨物",
    "货运",
    "发货",
    "运单",
  ],
  ["parcel", "parcels", "package", "packages", "paket", "pakete", "päckchen", "荷物", "小包", "包裹"],
  ["order", "orders", "bestellung", "bestellungen", "auftrag", "aufträge", "注文", "受注", "订单"],
  ["ticket", "tickets", "チケット", "工单"],
  ["customer", "customers", "kunde", "kunden", "顧客", "客户"],
  ["carrier", "carriers", "spediteur", "spediteure", "frachtführer", "運送会社", "キャリア", "承运商"],
  [
    "hub",
    "hubs",
    "warehouse",
    "warehouses",
    "depot",
    "depots",
    "lager",
    "standort",
    "standorte",
    "倉庫",
    "拠点",
    "仓库",
  ],
  ["country", "countries", "land", "länder", "ländern", "国", "国家"],
  ["incident", "incidents", "vorfall", "vorfälle", "事故", "インシデント", "事件"],
  ["invoice", "invoices", "rechnung", "rechnungen", "請求書", "发票"],
  ["payment", "payments", "zahlung", "zahlungen", "支払い", "付款"],
  ["employee", "employees", "mitarbeiter", "mitarbeitende", "従業員", "社員", "员工"],
  ["product", "products", "produkt", "produkte", "artikel", "製品", "商品", "产品"],
  ["weight", "gewicht", "重量", "重さ"],
  ["value", "wert", "warenwert", "金額", "价值"],
  ["status", "zustand", "状態", "状态", "ステータス"],
  ["mode", "transport mode", "verkehrsträger", "輸送モード", "运输方式"],
];

/** The other names of a noun or column alias in NOUN_SYNONYMS (empty when it has none). */
export function synonymsOf(word: string): readonly string[] {
  const group = NOUN_SYNONYMS.find((g) => g.includes(word));
  return group ? group.filter((w) => w !== word) : [];
}

/** Words a question (or a clause asking one) starts with, English and German, lower case. */
export const QUESTION_STARTS: readonly string[] = [
  ..."who whom whose what when where which why how is are was were does do did can could has have had will would should".split(
    " ",
  ),
  ..."wer wen wem wessen was wann wo woher wohin welche welcher welches welchen warum wieso wie ist sind war waren hat haben gibt gab kann können".split(
    " ",
  ),
];

/** Does the text start with a question word? (CJK questions mark the question at the end, and are not split.) */
export function startsAsQuestion(text: string): boolean {
  const first = /^\s*([\p{L}]+)/u.exec(text.normalize("NFKC").toLowerCase())?.[1];
  return first !== undefined && QUESTION_STARTS.includes(first);
}
