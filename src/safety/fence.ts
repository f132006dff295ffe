/**
 * Retrieved text is data, never instructions. Every passage that reaches a prompt goes through
 * `fencePassage` / `fenceEvidence`, earlier conversation turns through `fenceTurns`, other data through
 * `fenceData`, and short labels (titles, sections, source names and descriptions, column names, hints that
 * quote them) through `neutraliseLabel`. Fenced text is wrapped in markers no passage can forge (marker
 * look-alikes inside are broken up), invisible characters are removed, and lines that read like
 * instructions to a model are visibly rewritten with a `[quoted] ` prefix so the model sees them as quoted
 * material. Detection sees through zero-width and bidi characters, full-width letters, accents, letter case
 * and Markdown wrapping (see `visible-text.ts`); the text shown keeps its own characters, so a quote copied
 * from it still matches the stored passage (`agent/citations.ts` normalises both sides the same way).
 */
import type { Passage } from "../spec/passage.js";
import type { SessionTurn } from "../spec/store.js";
import { MULTILINGUAL_PHRASES } from "./instruction-phrases.js";
import { type DetectionView, detectionView, sourceEnd, sourceStart, stripInvisible } from "./visible-text.js";

/** The prefix put in front of an instruction-like phrase found in retrieved text. */
export const QUOTED_PREFIX = "[quoted] ";

export interface FenceOptions {
  /** Cut each passage's text to this many characters (an ellipsis marks the cut). */
  maxChars?: number;
}

/**
 * Runs of three or more angle brackets (and look-alikes) could forge a fence marker. Matched in the
 * detection view, where full-width and small-form brackets already read as `<` and `>`.
 */
const OPEN_RUN = /[<\u2039\u00AB\u3008\u27E8]{3,}/g;
const CLOSE_RUN = /[>\u203A\u00BB\u3009\u27E9]{3,}/g;
/** Chat-template control tokens some models treat specially (`<|im_start|>`, `<｜begin▁of▁sentence｜>`, `[INST]`). */
const CONTROL_TOKENS = /<\|[^|>\n]{0,40}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?s>/gi;
/** Bracket and bar characters inside a control token (and their full-width forms), replaced by spaces. */
const TOKEN_PUNCTUATION = /[<>|[\]\uFF1C\uFF1E\uFF5C\uFF3B\uFF3D\uFE64\uFE65]/g;

/** Phrases that try to steer the model, anywhere (they may span a line break). */
const INLINE_PATTERNS: RegExp[] = [
  /\b(?:please\s+)?(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|every\s+)*(?:previous|prior|above|earlier|preceding|system|original|former)?\s*(?:instructions?|prompts?|messages?|rules|directions|guidelines|context)\b/gi,
  /\byou\s+are\s+now\b/gi,
  /\bnew\s+(?:instructions?|rules|system\s+prompt)\s*:/gi,
  /\b(?:call|invoke|use|run|execute)\s+the\s+(?:tool|function)\b/gi,
  /\bact\s+as\s+(?:if\s+you\s+are\s+)?(?:an?\s+|the\s+)?(?:system|assistant|admin|developer|root)\b/gi,
  /\bdo\s+not\s+(?:cite|mention|reveal|tell)\b/gi,
  // The same steering in German, French, Spanish, Japanese and Chinese.
  ...MULTILINGUAL_PHRASES.map((p) => new RegExp(p.source, `${p.flags}g`)),
];

/**
 * Markdown that may wrap a label at the start of a line: quote marks, list bullets and numbers, heading
 * hashes, emphasis, code ticks (`> TOOL:`, `- tool:`, `**TOOL:**`, `` `TOOL:` ``, `### Tool:`, `1. System:`).
 * One character class, so a long run of such characters cannot make the match backtrack badly.
 */
const WRAP = "^[>*_`~#+\\-\u2022\\d.)\\s]*";
const CLOSE = "[*_`~]*\\s*";
const PROTOCOL_WORDS = "THINKING|TOOL|PARAMS|SUB-?QUESTIONS|ANSWER";
/** Role labels and the text tool-call protocol's keywords at the start of a line. */
const LINE_STARTS: RegExp[] = [
  // A role label followed by a colon, in any case.
  new RegExp(`${WRAP}(?:system|assistant|user|developer|human)${CLOSE}:`, "i"),
  // A heading that announces system text or instructions.
  /^\s*#{1,6}\s*(?:system|instructions?)\b/i,
  // A protocol keyword in any case followed by a colon, or alone on its line (`answer`, `**Answer**`).
  new RegExp(`${WRAP}(?:${PROTOCOL_WORDS})${CLOSE}(?::|$)`, "i"),
  // A protocol keyword in capitals, as the protocol writes it (`ANSWER the user`, `TOOL run_sql`).
  new RegExp(`${WRAP}(?:${PROTOCOL_WORDS})\\b`),
];
const INDENT = /^\s*/;
const LINE_BREAK = /\r\n?|[\n\v\f\u0085\u2028\u2029]/g;

/**
 * Replaces, in `text`, what `pattern` finds in its detection view: the replacement gets the shown
 * characters the match came from.
 */
function replaceInView(text: string, pattern: RegExp, replace: (shown: string) => string): string {
  const view = detectionView(text);
  if (view.text.search(pattern) < 0) return text;
  let out = "";
  let last = 0;
  for (const match of view.text.matchAll(pattern)) {
    const start = sourceStart(view, match.index, text.length);
    const end = sourceEnd(text, view, match.index + match[0].length - 1);
    if (start < last) continue;
    out += text.slice(last, start) + replace(text.slice(start, end));
    last = end;
  }
  return out + text.slice(last);
}

/** Puts `[quoted] ` in front of every role label, protocol line and steering phrase found in the view. */
function markInstructions(text: string, view: DetectionView = detectionView(text)): string {
  const points = new Set<number>();
  const mark = (viewIndex: number) => points.add(sourceStart(view, viewIndex, text.length));
  const line = (from: number, to: number) => {
    const body = view.text.slice(from, to);
    if (LINE_STARTS.some((pattern) => pattern.test(body))) mark(from + (INDENT.exec(body)?.[0].length ?? 0));
  };
  let from = 0;
  for (const brk of view.text.matchAll(LINE_BREAK)) {
    line(from, brk.index);
    from = brk.index + brk[0].length;
  }
  line(from, view.text.length);
  // Phrases found by two patterns (overlapping wording) get one mark, at the first one's start.
  const found = INLINE_PATTERNS.flatMap((pattern) => [...view.text.matchAll(pattern)]).sort(
    (a, b) => a.index - b.index,
  );
  let covered = -1;
  for (const match of found) {
    if (match.index >= covered) mark(match.index);
    covered = Math.max(covered, match.index + match[0].length);
  }
  let out = "";
  let last = 0;
  for (const at of [...points].sort((a, b) => a - b)) {
    if (text.slice(Math.max(0, at - QUOTED_PREFIX.length), at) === QUOTED_PREFIX) continue;
    out += text.slice(last, at) + QUOTED_PREFIX;
    last = at;
  }
  return out + text.slice(last);
}

/**
 * Makes retrieved text safe to show a model: invisible characters go (they can hide a phrase from the
 * checks below or smuggle text a model reads), marker look-alikes are broken up, control tokens defused,
 * and instruction-like phrases are visibly prefixed with `[quoted] `. Detection runs on the folded view
 * (`detectionView`), so zero-width characters, full-width letters, accents, any letter case and Markdown
 * wrapping do not hide a phrase; the text shown keeps its own characters.
 */
export function neutralise(text: string): string {
  const known = NEUTRALISED.get(text);
  if (known !== undefined) return known;
  const out = neutraliseText(text);
  if (text.length <= MEMO_TEXT_CHARS) {
    if (NEUTRALISED.size >= MEMO_ENTRIES) NEUTRALISED.clear();
    NEUTRALISED.set(text, out);
  }
  return out;
}

/**
 * The same passage is fenced for several prompts of one run (a search result, then the router's and the
 * grader's evidence) and its labels for every passage of a source: results are kept for recent texts
 * (a pure function of the text; bounded in entries and in the length of a text kept).
 */
const NEUTRALISED = new Map<string, string>();
const MEMO_ENTRIES = 2048;
const MEMO_TEXT_CHARS = 8192;

function neutraliseText(text: string): string {
  const visible = stripInvisible(text);
  const view = detectionView(visible);
  // Most text has no marker run and no control token: one folded view then serves the instruction marks.
  if ([OPEN_RUN, CLOSE_RUN, CONTROL_TOKENS].every((pattern) => view.text.search(pattern) < 0)) {
    return markInstructions(visible, view);
  }
  const unforged = replaceInView(
    replaceInView(visible, OPEN_RUN, (run) => Array.from(run).join(" ")),
    CLOSE_RUN,
    (run) => Array.from(run).join(" "),
  );
  const defused = replaceInView(
    unforged,
    CONTROL_TOKENS,
    (token) => `${QUOTED_PREFIX}${token.replace(TOKEN_PUNCTUATION, " ").trim()}`,
  );
  return markInstructions(defused);
}

/** Removes what `neutralise` added, so a quote copied from fenced text can be checked against the source. */
export function stripNeutralisation(text: string): string {
  return text.split(QUOTED_PREFIX).join("");
}

/** Longest label (title, section, source name, description) shown, in characters. */
const MAX_LABEL = 200;

/**
 * A short piece of data shown inline (a title, section, source name or description, a column name):
 * neutralised like a passage, on one line, without double quotes, at most 200 characters.
 */
export function neutraliseLabel(value: string, maxChars = MAX_LABEL): string {
  return neutralise(value.slice(0, maxChars * 2))
    .replace(/[\r\n\t\v\f\u0085\u2028\u2029]+/g, " ")
    .replace(/"/g, "'")
    .slice(0, maxChars);
}

const attr = (value: string) => neutraliseLabel(value);

function cut(text: string, maxChars: number | undefined): string {
  if (maxChars === undefined || text.length <= maxChars) return text;
  return `${text.slice(0, Math.max(0, maxChars)).trimEnd()} …`;
}

/** One passage, numbered `n` (citation `[n]`), inside unforgeable markers. */
export function fencePassage(n: number, passage: Passage, options: FenceOptions = {}): string {
  const attrs = [`id="${attr(passage.id)}"`, `source="${attr(passage.source)}"`];
  if (passage.title) attrs.push(`title="${attr(passage.title)}"`);
  if (passage.section) attrs.push(`section="${attr(passage.section)}"`);
  if (passage.updatedAt) attrs.push(`updated="${attr(passage.updatedAt)}"`);
  const body = neutralise(cut(passage.text, options.maxChars));
  return `<<<passage ${n} ${attrs.join(" ")}>>>\n${body}\n<<<end passage ${n}>>>`;
}

/** All passages, numbered from 1 in order, so `[n]` names `evidence[n - 1]`. */
export function fenceEvidence(evidence: readonly Passage[], options: FenceOptions & { only?: number[] } = {}): string {
  if (evidence.length === 0) return "(no passages)";
  const numbers = options.only ?? evidence.map((_, i) => i + 1);
  return numbers
    .map((n) => {
      const passage = evidence[n - 1];
      return passage ? fencePassage(n, passage, options) : undefined;
    })
    .filter((block): block is string => block !== undefined)
    .join("\n\n");
}

/** Other retrieved data (for example SQL result rows), fenced the same way under a label. */
export function fenceData(label: string, text: string, options: FenceOptions = {}): string {
  const name = attr(label);
  return `<<<data ${name}>>>\n${neutralise(cut(text, options.maxChars))}\n<<<end data ${name}>>>`;
}

/**
 * Earlier turns of a conversation, each fenced like a passage: what was said before (by the user or by
 * the assistant, whose answers quote retrieved text) is context for reading the question, not instructions.
 */
export function fenceTurns(
  turns: readonly Pick<SessionTurn, "role" | "content">[],
  options: FenceOptions = {},
): string {
  if (turns.length === 0) return "(no earlier turns)";
  return turns
    .map((turn, i) => {
      const n = i + 1;
      const role = turn.role === "user" ? "user" : "assistant";
      return `<<<turn ${n} role="${role}">>>\n${neutralise(cut(turn.content, options.maxChars))}\n<<<end turn ${n}>>>`;
    })
    .join("\n\n");
}
