/**
 * Finds entity mentions in text: identifiers (INC-2026-014, T-1042), API paths (/v2/refunds), IP
 * addresses, e-mail addresses, kebab- or snake-case names (refund-orchestrator), quoted strings and
 * capitalised names (Hannah Cho, Refunds & Disputes). Used to keep a question's entities strict while
 * grading and to pick bridge entities for the next hop.
 */

export type EntityType = "identifier" | "path" | "ip" | "email" | "code" | "quoted" | "name";

export interface Entity {
  text: string;
  type: EntityType;
  index: number;
}

/**
 * Each pattern is linear on any input: a match can only start where the previous character cannot continue
 * it (a word boundary or a lookbehind), so a long run without a match is read once, not once per start.
 */
const PATTERNS: [EntityType, RegExp][] = [
  ["email", /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g],
  ["ip", /\b\d{1,3}(?:\.\d{1,3}){3}\b/g],
  ["identifier", /\b[A-Z][A-Z0-9]{0,9}-\d[\w-]*\b/g],
  ["path", /(?<![\w/])\/[A-Za-z0-9_{}.-]+(?:\/[A-Za-z0-9_{}.-]+)+/g],
  ["code", /\b[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+\b/g],
  ["quoted", /["“«]([^"”»\n]{2,60})["”»]/g],
];

/** Words that start many sentences or questions and are not names. */
const NOT_NAMES = new Set(
  (
    "A An The This That These Those It Its If In On At For From To Of And Or But With Without By As Is Are Was Were " +
    "Be Been Do Does Did Has Have Had Can Could Should Would Will May Might Must Which What Who Whom Whose When Where " +
    "Why How Not No Yes All Any Each Every Some Most More Less Only Also Then Than There Here After Before During " +
    "Since Until While About Into Over Under Between Both Either Neither I We You He She They Our Your Their His Her " +
    "My Me Us Them Please Note Give List Tell Show Name Find Get See Use Set Add Make " +
    "January February March April May June July August September October November December " +
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
  ).split(" "),
);

/**
 * Words that start a German sentence or phrase and are no names (articles, pronouns, prepositions, question
 * words): read only where the text capitalises every noun (`EntityOptions.nounCapitals`).
 */
const NOT_NAMES_DE = new Set(
  (
    "Der Die Das Den Dem Des Ein Eine Einen Einem Einer Eines Kein Keine Keinen Dieser Diese Dieses Jeder Jede " +
    "Jedes Alle Ich Du Er Sie Es Wir Ihr Man Wer Wie Was Wo Wann Warum Welche Welcher Welches Bei Mit Nach Von " +
    "Vom Zu Zum Zur Auf Aus Im In Am An Um Für Über Unter Vor Seit Bis Durch Ohne Gegen Und Oder Aber Wenn Als " +
    "Ob Dass Nicht Auch Nur Noch Schon Dann Hier Dort Nach Bitte"
  ).split(" "),
);

/**
 * How a text writes names. `nounCapitals`: the text's language capitalises every noun (German), so a capital
 * letter alone does not make a name: a name there is a run of at least two capitalised words ("Kestrel Fleet",
 * "Neue Hafen GmbH"), or a word marked as a name by more than its first letter: all capitals ("BG"), a capital
 * inside ("NordRail") or a digit ("R5"). "Rampe", "Tor 14" and "Die Rampe" are nouns.
 */
export interface EntityOptions {
  nounCapitals?: boolean;
}

/** A word that is a name by more than a first capital: all capitals, a capital inside, or a digit with letters. */
function markedName(word: string): boolean {
  if (/^\p{Lu}{2,}[\p{Lu}\p{N}]*$/u.test(word) || /\p{Ll}\p{Lu}/u.test(word)) return true;
  return /\p{L}/u.test(word) && /\p{N}/u.test(word);
}

const NAME_WORD = /^(?:[A-Z][\p{L}\p{N}'’.-]*|[A-Z]{2,}|\d+)$/u;
/** A capitalised word of a name: "Okafor", "R5", "Jean-Luc"; not an identifier such as "AR-2002". */
function isNameWord(word: string, options: EntityOptions = {}): boolean {
  if (options.nounCapitals && NOT_NAMES_DE.has(word)) return false;
  return NAME_WORD.test(word) && !(/\d/.test(word) && word.includes("-")) && !NOT_NAMES.has(uncontracted(word));
}

/**
 * Is a run of name words a name where every noun is capitalised: two capitalised words with letters, or one
 * word marked as a name (`markedName`)? Linear in the run.
 */
function nounCapitalName(run: readonly string[]): boolean {
  let lettered = 0;
  for (const word of run) {
    if (markedName(word)) return true;
    if (/^\p{Lu}/u.test(word) && /\p{L}/u.test(word)) lettered++;
  }
  return lettered >= 2;
}

/** A word without an English contraction ("What's" -> "What", "Who'd" -> "Who"): a question word, not a name. */
function uncontracted(word: string): string {
  return word.replace(CONTRACTION, "");
}
const CONTRACTION = /['’](?:s|re|ll|d|ve|m)$/;

const POSSESSIVE = /\p{L}['’]s$/u;

const CONNECTORS = new Set(["of", "the", "&", "de", "von", "van", "der", "la", "le", "du", "y"]);

/** The text without trailing full stops (a loop: `/[.]+$/` is quadratic on a long run of dots). */
function trimDots(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2e) end--;
  return end === text.length ? text : text.slice(0, end);
}

function names(text: string, options: EntityOptions = {}): Entity[] {
  const out: Entity[] = [];
  const tokens = [...text.matchAll(/[\p{L}\p{N}'’.&-]+/gu)];
  let i = 0;
  while (i < tokens.length) {
    const tok = tokens[i]!;
    const word = trimDots(tok[0]);
    if (!/^[A-Z]/.test(word) || !isNameWord(word, options)) {
      i++;
      continue;
    }
    let j = i + 1;
    let end = i;
    while (j < tokens.length) {
      const next = trimDots(tokens[j]![0]);
      const gap = text.slice(tokens[j - 1]!.index! + tokens[j - 1]![0].length, tokens[j]!.index!);
      // A possessive ends the name: in "Halden's ledger API" the name is Halden, not "Halden's ledger API".
      if (/[,;:!?()\n]/.test(gap) || tokens[j - 1]![0].endsWith(".") || POSSESSIVE.test(tokens[j - 1]![0])) break;
      if (/^[A-Z]/.test(next) && isNameWord(next, options)) end = j;
      // Where every noun is capitalised, a connector joins a noun to a name ("Fahrer von Kestrel Fleet").
      else if (options.nounCapitals || !CONNECTORS.has(next)) break;
      j++;
    }
    const start = tok.index!;
    const last = tokens[end]!;
    const phrase = trimDots(text.slice(start, last.index! + last[0].length)).replace(/['’]s$/, "");
    const sentenceStart = start === 0 || /[.!?]\s*$|\n\s*$|^\s*$/.test(text.slice(Math.max(0, start - 3), start));
    const run = tokens.slice(i, end + 1).map((t) => trimDots(t[0]));
    const named = options.nounCapitals ? nounCapitalName(run) : end > i || !sentenceStart;
    if (named) out.push({ text: phrase, type: "name", index: start });
    i = end + 1;
  }
  return out;
}

/** Entity mentions in order of appearance, without repeats (case-insensitive). */
export function extractEntities(text: string, options: EntityOptions = {}): Entity[] {
  const found: Entity[] = [];
  for (const [type, pattern] of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const value = type === "quoted" ? match[1]! : match[0];
      found.push({ text: value, type, index: match.index! });
    }
  }
  found.push(...names(text, options));
  found.sort((a, b) => a.index - b.index || b.text.length - a.text.length);
  const seen = new Set<string>();
  const out: Entity[] = [];
  // Kept entities start at or before this one (sorted), so one lies around it iff the furthest end does.
  let furthest = -1;
  for (const entity of found) {
    const key = entity.text.toLowerCase();
    if (seen.has(key)) continue;
    // A name inside an identifier or path already found (e.g. "INC" of INC-2026-014) adds nothing.
    const end = entity.index + entity.text.length;
    if (furthest >= end) continue;
    seen.add(key);
    out.push(entity);
    furthest = end;
  }
  return out;
}

/** Combining marks after a Latin letter (accents); the marks of kana and other scripts change the letter. */
const LATIN_MARKS = /(?<=\p{Script=Latin})\p{M}+/gu;

/**
 * The text as `mentions` compares it: lower case, a hyphen or dash between two letters read as a space
 * ("half-day" = "half day"), a colon or semicolon and the spaces around it as one space ("Harbor Tales;
 * Second Voyage" = "Harbor Tales: Second Voyage"), runs of whitespace as one space, and a Latin letter without its
 * accents ("Malmö" = "Malmo": a question often writes a name without them). One linear pass per rule.
 */
function comparable(text: string): string {
  let out = comparableCache.get(text);
  if (out === undefined) {
    out = comparableText(text);
    if (comparableCache.size >= MAX_COMPARABLE) comparableCache.clear();
    comparableCache.set(text, out);
  }
  return out;
}

/**
 * `comparable` of recent texts: one question checks many names against the same passages. Bounded; the key
 * is the text itself, so a hit costs one string hash (cached by the engine on the string).
 */
const comparableCache = new Map<string, string>();
const MAX_COMPARABLE = 2048;

function comparableText(text: string): string {
  return text
    .normalize("NFD")
    .replace(LATIN_MARKS, "")
    .toLowerCase()
    .replace(/(?<=\p{L})[-‐‑–—](?=\p{L})/gu, " ")
    .replace(/[ \t]*[;:][ \t]*/g, " ")
    .replace(/\s+/g, " ");
}

/** An acronym whose letters may stand for the initials of consecutive words ("CEO"). */
const ACRONYM = /^[A-Z]{3,6}$/;
/** Short words an acronym may skip ("Department of Justice" = DOJ) or use. */
const ACRONYM_SKIP = new Set(["of", "and", "for", "the", "&", "und", "für", "der", "des"]);

/**
 * True when consecutive words of the text start with the acronym's letters, in order, each word at least
 * three letters long ("chief executive officer" for CEO); connecting words may be skipped. One pass over
 * the words; a match is only tried where a word starts with the first letter.
 */
export function spellsAcronym(text: string, acronym: string): boolean {
  if (!ACRONYM.test(acronym)) return false;
  const letters = acronym.toLowerCase();
  const words = text.toLowerCase().match(/[\p{L}&]+/gu) ?? [];
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (at > 0 && ACRONYM_SKIP.has(word)) continue;
    if (word.length >= 3 && word.startsWith(letters[at]!)) {
      at++;
      if (at === letters.length) return true;
    } else {
      // Restart: this word may begin the acronym itself.
      at = word.length >= 3 && word.startsWith(letters[0]!) ? 1 : 0;
    }
  }
  return false;
}

/**
 * True when the entity occurs in the text: case-, whitespace- and hyphen-insensitive (see `comparable`); an
 * acronym also when the text spells it out (`spellsAcronym`).
 */
export function mentions(text: string, entity: string): boolean {
  if (comparable(text).includes(comparable(entity))) return true;
  return ACRONYM.test(entity) && spellsAcronym(text, entity);
}
