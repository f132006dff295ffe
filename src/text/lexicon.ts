/**
 * A small bilingual lexicon of everyday business and logistics words, so a question in one language meets
 * a passage in another without a translation model. Each concept has an English gloss (one or two words)
 * and its German, Japanese and Chinese words. Tokenisation (tokenize.ts) adds the gloss after every
 * foreign word it knows, in the keyword index and in queries alike, and `fold` (overlap.ts) folds a German
 * word to its gloss, so "Zustellung" in a question covers "delivery" in a passage and the reverse.
 *
 * German words are matched whole, after dropping an inflection ending, and as compounds: a word ending in
 * a known word ("Gabelstapler") takes that word's gloss when the rest is also known or the known end is
 * long. Japanese and Chinese words are found by longest match at each position of a CJK run. English
 * words are never keys, so English text tokenises as before. No entry is about one knowledge base.
 * Linear: a Latin word is looked up at most `maxWord` times, a CJK run at most `maxCjk` times per character.
 */

interface Concept {
  en: string;
  de?: string;
  ja?: string;
  zh?: string;
}

/** `|`-separated forms per language. German forms are lower case; a form ending in "-" is a compound stem only. */
const CONCEPTS: Concept[] = [
  { en: "day", de: "tage|tagen|tages", ja: "日間|日以内", zh: "天内" },
  { en: "week", de: "woche|wochen", ja: "週間", zh: "星期|周内" },
  { en: "month", de: "monat|monate|monaten|monats", ja: "ヶ月|か月|カ月", zh: "个月" },
  { en: "hour", de: "stunde|stunden", ja: "時間", zh: "小时" },
  { en: "minute", de: "minuten", ja: "分間", zh: "分钟" },
  { en: "time", de: "zeit|zeiten|uhrzeit", ja: "時刻", zh: "时间" },
  { en: "customer", de: "kunde|kunden", ja: "顧客|お客様", zh: "客户|顾客" },
  {
    en: "delivery",
    de: "zustellung|lieferung|auslieferung|liefer-|zustell-",
    ja: "配達|納品|配送",
    zh: "交付|配送|送达",
  },
  { en: "damage", de: "schaden|schäden|beschädigung", ja: "損傷|破損|損害", zh: "损坏|损失" },
  { en: "loss", de: "verlust|verluste", ja: "紛失", zh: "丢失|遗失" },
  { en: "notify", de: "melden|meldung|benachrichtigen|benachrichtigung", ja: "報告|通知|連絡", zh: "报告|通知" },
  { en: "claim", de: "reklamation|reklamationen", ja: "クレーム|賠償請求", zh: "索赔" },
  { en: "shipment", de: "sendung|sendungen|fracht", ja: "貨物|出荷", zh: "货物|发货|货运" },
  { en: "cut off", de: "annahmeschluss|stichzeit", ja: "締め切り|締切", zh: "截止" },
  { en: "road", de: "straße|strasse|lkw", ja: "道路|陸送|トラック", zh: "公路" },
  { en: "rail", de: "bahn|schiene", ja: "鉄道", zh: "铁路" },
  { en: "air", de: "luftfracht|luft-", ja: "航空", zh: "空运" },
  { en: "sea", de: "seefracht", ja: "海上|船便", zh: "海运" },
  { en: "dangerous goods", de: "gefahrgut|gefahrgüter|gefahrgut-", ja: "危険物", zh: "危险品" },
  { en: "class", de: "klasse|klassen", ja: "等級|クラス", zh: "类别" },
  { en: "accept", de: "annahme|annehmen|angenommen|akzeptiert|akzeptieren", ja: "受け入れ|受入", zh: "接受|接收" },
  { en: "forklift", de: "stapler|gabelstapler", ja: "フォークリフト", zh: "叉车" },
  { en: "speed", de: "geschwindigkeit|geschwindigkeiten", ja: "速度", zh: "速度" },
  { en: "limit", de: "grenze|grenzwert|begrenzung", ja: "制限|上限", zh: "限制|上限" },
  { en: "warehouse", de: "lager|lagerhalle|hallen|lagerhaus", ja: "倉庫", zh: "仓库" },
  { en: "driver", de: "fahrer|fahrerin|fahrpersonal", ja: "運転手|ドライバー|運転者", zh: "司机|驾驶员" },
  { en: "vehicle", de: "fahrzeug|fahrzeuge", ja: "車両", zh: "车辆" },
  { en: "customs", de: "zoll|zoll-", ja: "税関|通関", zh: "海关|清关" },
  { en: "carrier", de: "frachtführer|spediteur", ja: "運送会社|輸送業者", zh: "承运人|承运商" },
  { en: "weight", de: "gewicht", ja: "重量", zh: "重量" },
  { en: "price", de: "preis|preise", ja: "料金|価格", zh: "价格" },
  { en: "cost", de: "kosten", ja: "費用", zh: "费用|成本" },
  { en: "invoice", de: "rechnung|rechnungen", ja: "請求書", zh: "发票" },
  { en: "contract", de: "vertrag|verträge", ja: "契約", zh: "合同" },
  { en: "employee", de: "mitarbeiter|beschäftigte", ja: "従業員|社員", zh: "员工" },
  { en: "temperature", de: "temperatur|temperaturen", ja: "温度", zh: "温度" },
  { en: "pallet", de: "palette|paletten", ja: "パレット", zh: "托盘" },
  { en: "surcharge", de: "zuschlag|zuschläge", ja: "割増|追加料金", zh: "附加费" },
  { en: "safety", de: "sicherheit", ja: "安全", zh: "安全" },
  { en: "incident", de: "unfall|vorfall|zwischenfall", ja: "事故", zh: "事故" },
  { en: "inspection", de: "prüfung|kontrolle", ja: "点検|検査", zh: "检查" },
  { en: "training", de: "schulung|unterweisung", ja: "研修|講習", zh: "培训" },
  { en: "licence", de: "lizenz|führerschein|fahrausweis", ja: "免許|ライセンス", zh: "执照|驾照" },
  { en: "storage", de: "lagerung", ja: "保管", zh: "存储|储存" },
  { en: "package", de: "paket|pakete", ja: "荷物|梱包", zh: "包裹" },
  { en: "address", de: "adresse|anschrift", ja: "住所", zh: "地址" },
  { en: "phone", de: "telefon|telefonnummer", ja: "電話", zh: "电话" },
  { en: "date", ja: "日付", zh: "日期" },
  { en: "rule", de: "regel|regeln|vorschrift|vorschriften", ja: "規則|規程", zh: "规则" },
  { en: "permit", de: "genehmigung|erlaubt", ja: "許可", zh: "许可" },
  { en: "responsible", de: "verantwortlich|zuständig", ja: "担当|責任者", zh: "负责" },
  { en: "departure", de: "abfahrt", ja: "出発", zh: "出发" },
  { en: "arrival", de: "ankunft", ja: "到着", zh: "到达" },
  { en: "receiving", de: "wareneingang", ja: "入荷", zh: "收货" },
  { en: "return", de: "rücksendung|retoure|retouren", ja: "返品", zh: "退货" },
  { en: "refund", de: "erstattung|rückerstattung", ja: "返金", zh: "退款" },
  { en: "delay", de: "verspätung|verzögerung", ja: "遅延", zh: "延误|延迟" },
  { en: "cancellation", de: "stornierung|storno", ja: "キャンセル", zh: "取消" },
  { en: "payment", de: "zahlung|bezahlung", ja: "支払", zh: "付款|支付" },
  { en: "insurance", de: "versicherung", ja: "保険", zh: "保险" },
  { en: "liability", de: "haftung", ja: "賠償責任", zh: "责任" },
  { en: "document", de: "dokument|dokumente|unterlagen", ja: "書類", zh: "文件" },
  { en: "signature", de: "unterschrift|signatur", ja: "署名", zh: "签名" },
  { en: "fine", de: "bußgeld|strafe", ja: "罰金", zh: "罚款" },
  { en: "minimum", de: "mindestens|mindest-", ja: "最低", zh: "最少|最低" },
  { en: "maximum", de: "höchstens|maximal|höchst-", ja: "最大|最高", zh: "最多|最高" },
  { en: "monday", de: "montag|montags", ja: "月曜", zh: "星期一|周一" },
  { en: "friday", de: "freitag|freitags", ja: "金曜", zh: "星期五|周五" },
  { en: "weekend", de: "wochenende", ja: "週末", zh: "周末" },
  { en: "holiday", de: "feiertag|feiertage", ja: "祝日|休日", zh: "节假日|假期" },
];

export interface LexiconOptions {
  /** Longest Latin word looked at (longer ones are left alone). */
  maxWord: number;
  /** Shortest known end of a compound whose start is not known. */
  longHead: number;
  /** Shortest known end of a compound whose start is also known, and shortest start. */
  shortPart: number;
}

export const LEXICON_OPTIONS: LexiconOptions = { maxWord: 40, longHead: 6, shortPart: 4 };

const LATIN = new Map<string, string[]>();
const STEMS = new Map<string, string[]>();
const CJK = new Map<string, string[]>();
let maxCjk = 0;

for (const c of CONCEPTS) {
  const gloss = c.en.split(" ");
  for (const form of (c.de ?? "").split("|").filter(Boolean)) {
    if (form.endsWith("-")) STEMS.set(form.slice(0, -1), gloss);
    else {
      LATIN.set(form, gloss);
      STEMS.set(form, gloss);
    }
  }
  for (const form of [...(c.ja ?? "").split("|"), ...(c.zh ?? "").split("|")].filter(Boolean)) {
    CJK.set(form, gloss);
    maxCjk = Math.max(maxCjk, form.length);
  }
}

/** The German, Japanese and Chinese forms of each English gloss word, for matching a gloss in raw text. */
const FORMS = new Map<string, string[]>();
for (const [table] of [[LATIN], [STEMS], [CJK]] as const) {
  for (const [form, gloss] of table) {
    for (const word of gloss) {
      const forms = FORMS.get(word) ?? [];
      if (!forms.includes(form)) forms.push(form);
      FORMS.set(word, forms);
    }
  }
}

/** The foreign forms (lower case) that an English gloss word stands for; empty for a word no concept glosses. */
export function formsOfGloss(word: string): readonly string[] {
  return FORMS.get(word) ?? [];
}

/** German inflection endings dropped before a second lookup ("Klassen" → "klasse"). */
const ENDINGS = ["en", "n", "e", "es", "s", "er"];

function whole(word: string, table: Map<string, string[]>): string[] | undefined {
  const hit = table.get(word);
  if (hit) return hit;
  for (const end of ENDINGS) {
    if (word.length > end.length + 3 && word.endsWith(end)) {
      const found = table.get(word.slice(0, -end.length));
      if (found) return found;
    }
  }
  return undefined;
}

/** The gloss of a compound's start known as a word or stem, with or without a linking "s". */
function knownStart(start: string): string[] | undefined {
  return STEMS.get(start) ?? (start.endsWith("s") ? STEMS.get(start.slice(0, -1)) : undefined);
}

/**
 * The English gloss of a normalised (lower-case) Latin word the lexicon knows, else undefined: the word
 * itself, an inflected form, or a compound ending in a known word (the gloss of its end first, then the
 * gloss of its start when that is known too).
 */
export function glossOf(word: string, options: LexiconOptions = LEXICON_OPTIONS): string[] | undefined {
  if (word.length < 3 || word.length > options.maxWord) return undefined;
  if (options !== LEXICON_OPTIONS) return lookUp(word, options);
  const known = MEMO.get(word);
  if (known !== undefined) return known || undefined;
  if (MEMO.size >= MEMO_SIZE) MEMO.clear();
  const found = lookUp(word, options);
  MEMO.set(word, found ?? false);
  return found;
}

/** Words looked up before: every word of every passage goes through `glossOf` when terms are folded. */
const MEMO = new Map<string, string[] | false>();
const MEMO_SIZE = 100_000;

function lookUp(word: string, options: LexiconOptions): string[] | undefined {
  const exact = whole(word, LATIN);
  if (exact) return exact;
  for (let cut = options.shortPart; cut <= word.length - options.shortPart; cut++) {
    const head = word.slice(cut);
    const gloss = whole(head, LATIN);
    if (!gloss) continue;
    const start = knownStart(word.slice(0, cut));
    if (start) return [...gloss, ...start];
    if (head.length >= options.longHead) return gloss;
  }
  return undefined;
}

/** Glosses of the known words of a CJK run, longest match first at each position, with their spans. */
export function cjkGlosses(run: string): { start: number; end: number; gloss: string[] }[] {
  const out: { start: number; end: number; gloss: string[] }[] = [];
  let i = 0;
  while (i < run.length) {
    let step = 1;
    for (let len = Math.min(maxCjk, run.length - i); len >= 2; len--) {
      const gloss = CJK.get(run.slice(i, i + len));
      if (gloss) {
        out.push({ start: i, end: i + len, gloss });
        step = len;
        break;
      }
    }
    i += step;
  }
  return out;
}
