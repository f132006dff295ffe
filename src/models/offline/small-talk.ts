/**
 * Questions that need no knowledge base: greetings and questions about the assistant (cue tables in four
 * languages), and small computations the offline engine can do itself: a percentage of a number, one
 * arithmetic operation, and unit conversions within one dimension (mass, length, time, data, currency
 * sub-units). Nothing is evaluated: each shape is parsed by a fixed pattern with bounded repetition and the
 * arithmetic is done on the parsed numbers.
 */
import { type CueTable, FILLER, findCues, type Lang, languageOf, withoutCues } from "./question-cues.js";

const w = (s: string): string[] => s.split("|").filter(Boolean);

/** Openings of a greeting (matched only as the question's first words, or alone in CJK). */
export const GREETING: CueTable = {
  en: w(
    "hi|hello|hey|hiya|howdy|morning|good morning|good afternoon|good evening|greetings|thanks|thank you|cheers|bye|goodbye|ok|okay|great",
  ),
  de: w("hallo|hi|hey|moin|servus|guten morgen|guten tag|guten abend|grüß gott|danke|vielen dank|tschüss"),
  zh: w("你好|您好|早上好|下午好|晚上好|谢谢|再见|嗨"),
  ja: w("こんにちは|おはよう|こんばんは|ありがとう|はじめまして|どうも"),
};

/** Questions about what the assistant is or can do. */
export const ABOUT_ME: CueTable = {
  en: w(
    "what can you do|what can you help|how can you help|can you help me|who are you|what are you|what can i ask|" +
      "what sort of stuff|what kind of stuff|what kinds of questions|what kind of questions|what sort of questions|" +
      "what questions can|what things can you",
  ),
  de: w("was kannst du|wer bist du|kannst du mir helfen|wobei kannst du|was kann ich fragen|können sie mir helfen"),
  zh: w("你能做什么|你可以做什么|你是谁|能帮我|可以帮我|我可以问什么"),
  ja: w("何ができます|あなたは誰|手伝って|何を聞けば|何を質問"),
};

const REPLY: Record<Lang, (sources: string) => string> = {
  en: (s) =>
    `Hello! I can help you find answers in this knowledge base and assist with questions about: ${s}. ` +
    "I answer only from these sources and cite them (I am the offline engine, not a language model).",
  de: (s) =>
    `Hallo! Ich helfe gern: Ich beantworte Fragen aus dieser Wissensbasis (${s}) und belege jede Aussage ` +
    "mit einer Quelle (offline engine, kein Sprachmodell; I can help in English too).",
  zh: (s) => `你好！我可以帮助你在这个知识库中查找答案（${s}），并为每个回答注明出处。I can help in English too.`,
  ja: (s) =>
    `こんにちは！このナレッジベース（${s}）から回答を探すお手伝いをします。回答には出典を付けます。I can help in English too.`,
};

/** At most one word, or two CJK characters, besides punctuation. */
function littleAfter(rest: string): boolean {
  const cjk = rest.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  const latin = rest.match(/[\p{Script=Latin}\p{N}]+/gu)?.length ?? 0;
  return cjk <= 2 && latin <= 1;
}

/** A greeting or a question about the assistant: the reply, in the question's language; else undefined. */
export function smallTalkReply(question: string, sources: string): string | undefined {
  const q = question.trim();
  // The cue that matched tells the language better than function words can in four words of small talk.
  const detected = languageOf(q);
  const order: Lang[] = [detected, ...(["en", "de", "zh", "ja"] as const).filter((l) => l !== detected)];
  for (const lang of order) {
    // Filler words may sit inside the phrase ("kannst du mir bitte helfen"): match with and without them.
    const head = q.slice(0, 400);
    const asked = [head, withoutCues(head, FILLER, [lang])].some((t) => findCues(t, ABOUT_ME, [lang]).length > 0);
    if (asked) return REPLY[lang](sources);
    const greeting = findCues(q.slice(0, 200), GREETING, [lang]).find((h) => q.slice(0, h.start).trim() === "");
    // Only the greeting, give or take a word ("Hi there!"): a greeting before a real question is a question.
    if (greeting && q.length <= 40 && littleAfter(q.slice(greeting.end))) return REPLY[lang](sources);
  }
  return undefined;
}

/** A number as written: digits with `,` or space thousands and a `.` decimal point (or a German `,` decimal). */
const NUM = String.raw`\d{1,15}(?:[,.  ]\d{3}){0,5}(?:[.,]\d{1,10})?`;

function parseNumber(text: string, lang: Lang = "en"): number | undefined {
  let t = text.replace(/[  ]/g, "");
  // German writes 1.200,5 where English writes 1,200.5.
  if (lang === "de") t = t.replace(/\.(?=\d{3}(?!\d))/g, "").replace(",", ".");
  // "2,500" and "1,000,000" are thousands; a lone "2,5" is a decimal comma.
  const value = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(t) ? Number(t.replace(/,/g, "")) : Number(t.replace(",", "."));
  return Number.isFinite(value) ? value : undefined;
}

function format(value: number): string {
  const rounded = Math.round(value * 1e6) / 1e6;
  return rounded.toLocaleString("en-US", { maximumFractionDigits: 6 });
}

const PERCENT = new RegExp(String.raw`(${NUM})\s?(?:%|percent|prozent)\s+(?:of|von)\s+(${NUM})`, "iu");
const PERCENT_CJK = new RegExp(String.raw`(${NUM})\s?的\s?(${NUM})\s?%|(${NUM})\s?の\s?(${NUM})\s?%`, "u");
const OPERATORS: [RegExp, (a: number, b: number) => number | undefined][] = [
  [/^(?:\+|plus|and|und|加)$/iu, (a, b) => a + b],
  [/^(?:-|−|minus|减)$/iu, (a, b) => a - b],
  [/^(?:\*|×|x|times|multiplied by|mal|乘以?)$/iu, (a, b) => a * b],
  [/^(?:\/|÷|divided by|over|geteilt durch|durch|除以)$/iu, (a, b) => (b === 0 ? undefined : a / b)],
];
const BINARY = new RegExp(
  String.raw`(?:what is|what's|how much is|calculate|compute|was ist|wie viel ist|berechne)\s+(${NUM})\s*(\+|-|−|\*|×|x|/|÷|plus|minus|times|multiplied by|divided by|over|mal|geteilt durch|durch)\s*(${NUM})\s*[?.!]?\s*$`,
  "iu",
);

interface Unit {
  dimension: string;
  /** How many base units one of this unit is. */
  factor: number;
}

/** Unit names (singular and plural, English and German) by dimension; the base unit has factor 1. */
const UNITS: Record<string, Unit> = {};
function units(dimension: string, entries: [string, number][]): void {
  for (const [names, factor] of entries) for (const name of names.split("|")) UNITS[name] = { dimension, factor };
}
units("mass", [
  ["milligram|milligrams|mg|milligramm", 1e-6],
  ["gram|grams|g|gramm", 1e-3],
  ["kilogram|kilograms|kilo|kilos|kg|kilogramm", 1],
  ["tonne|tonnes|metric tonne|metric tonnes|metric ton|metric tons|t|tonnen", 1000],
  ["pound|pounds|lb|lbs", 0.45359237],
  ["ounce|ounces|oz", 0.028349523125],
]);
units("length", [
  ["millimetre|millimetres|millimeter|millimeters|mm", 1e-3],
  ["centimetre|centimetres|centimeter|centimeters|cm|zentimeter", 1e-2],
  ["metre|metres|meter|meters|m", 1],
  ["kilometre|kilometres|kilometer|kilometers|km", 1000],
  ["inch|inches|in", 0.0254],
  ["foot|feet|ft", 0.3048],
  ["mile|miles|meile|meilen", 1609.344],
]);
units("time", [
  ["millisecond|milliseconds|ms|millisekunde|millisekunden", 1e-3],
  ["second|seconds|sec|secs|s|sekunde|sekunden", 1],
  ["minute|minutes|min|mins|minuten", 60],
  ["hour|hours|h|hr|hrs|stunde|stunden", 3600],
  ["day|days|tag|tage|tagen", 86400],
  ["week|weeks|woche|wochen", 604800],
]);
units("data", [
  ["byte|bytes", 1],
  ["kilobyte|kilobytes|kb", 1e3],
  ["megabyte|megabytes|mb", 1e6],
  ["gigabyte|gigabytes|gb", 1e9],
  ["kibibyte|kibibytes|kib", 1024],
  ["mebibyte|mebibytes|mib", 1024 ** 2],
]);
units("usd", [
  ["cent|cents", 0.01],
  ["dollar|dollars|us dollar|us dollars|usd", 1],
]);
units("eur", [
  ["euro cent|euro cents|eurocent|eurocents", 0.01],
  ["euro|euros|eur", 1],
]);

/** Up to three words naming a unit. */
const UNIT_WORDS = String.raw`[\p{L}]{1,20}(?:\s[\p{L}]{1,20}){0,2}`;
const HOW_MANY_IN = new RegExp(
  String.raw`^\s*(?:how many|wie viele)\s+(${UNIT_WORDS})\s+(?:are|is|make|sind|hat|machen|ergeben|gibt es)\s+(?:(?:in|im|in einer|in einem)\s+)?(?:(${NUM})|a|an|one|1|ein|eine|einer|einem)\s+(${UNIT_WORDS})\s*[?.!]?\s*$`,
  "iu",
);

function unitOf(words: string): Unit | undefined {
  const name = words.toLowerCase().trim();
  return UNITS[name] ?? UNITS[name.replace(/^(?:a|an|one|the)\s+/, "")];
}

/** One computation the question asks for, as a sentence; undefined when the question is not one. */
export function computeAnswer(question: string): string | undefined {
  const q = question.trim();
  if (q.length > 200) return undefined;
  const lang = languageOf(q);
  const num = (text: string | undefined) => (text === undefined ? undefined : parseNumber(text, lang));
  const percent = PERCENT.exec(q);
  if (percent) {
    const p = num(percent[1]);
    const of = num(percent[2]);
    if (p !== undefined && of !== undefined) return `${percent[1]}% of ${percent[2]} is ${format((p * of) / 100)}.`;
  }
  const cjk = PERCENT_CJK.exec(q);
  if (cjk) {
    const of = num(cjk[1] ?? cjk[3]);
    const p = num(cjk[2] ?? cjk[4]);
    if (p !== undefined && of !== undefined) return `${format((p * of) / 100)}`;
  }
  const binary = BINARY.exec(q);
  if (binary) {
    const a = num(binary[1]);
    const b = num(binary[3]);
    const op = OPERATORS.find(([pattern]) => pattern.test(binary[2]!.trim()));
    const value = a !== undefined && b !== undefined && op ? op[1](a, b) : undefined;
    if (value !== undefined) return `${binary[1]} ${binary[2]} ${binary[3]} is ${format(value)}.`;
  }
  const conversion = HOW_MANY_IN.exec(q);
  if (conversion) {
    const target = unitOf(conversion[1]!);
    const source = unitOf(conversion[3]!);
    const amount = conversion[2] ? num(conversion[2]) : 1;
    if (target && source && amount !== undefined && target.dimension === source.dimension) {
      const value = (amount * source.factor) / target.factor;
      return `${conversion[2] ?? "One"} ${conversion[3]!.trim()} is ${format(value)} ${conversion[1]!.trim()}.`;
    }
  }
  return undefined;
}
