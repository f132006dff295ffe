/**
 * Retrieved text is data, never instructions. Every passage that reaches a prompt goes through
 * `fencePassage` / `fenceEvidence`: it is wrapped in markers no passage can forge (marker look-alikes
 * inside are broken up), and lines that read like instructions to a model are visibly rewritten with a
 * `[quoted] ` prefix so the model sees them as quoted material.
 */
import type { Passage } from "../spec/passage.js";

/** The prefix put in front of an instruction-like phrase found in retrieved text. */
export const QUOTED_PREFIX = "[quoted] ";

export interface FenceOptions {
  /** Cut each passage's text to this many characters (an ellipsis marks the cut). */
  maxChars?: number;
}

/** Runs of three or more angle brackets (and look-alikes) could forge a fence marker. */
const OPEN_RUN = /[<\uFF1C\u2039\u00AB\u3008\u27E8\u2329]{3,}/g;
const CLOSE_RUN = /[>\uFF1E\u203A\u00BB\u3009\u27E9\u232A]{3,}/g;
/** Chat-template control tokens some models treat specially. */
const CONTROL_TOKENS = /<\|[^|>\n]{0,40}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?s>/gi;

/** Phrases that try to steer the model, anywhere in a line. */
const INLINE_PATTERNS: RegExp[] = [
  /\b(?:please\s+)?(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|every\s+)*(?:previous|prior|above|earlier|preceding|system|original|former)?\s*(?:instructions?|prompts?|messages?|rules|directions|guidelines|context)\b/gi,
  /\byou\s+are\s+now\b/gi,
  /\bnew\s+(?:instructions?|rules|system\s+prompt)\s*:/gi,
  /\b(?:call|invoke|use|run|execute)\s+the\s+(?:tool|function)\b/gi,
  /\bact\s+as\s+(?:if\s+you\s+are\s+)?(?:an?\s+|the\s+)?(?:system|assistant|admin|developer|root)\b/gi,
  /\bdo\s+not\s+(?:cite|mention|reveal|tell)\b/gi,
];

/** Role labels (any case) and the text tool-call protocol's keywords (upper case) at the start of a line. */
const ROLE_START = /^(\s*)(?:system|assistant|user|developer|human)\s*:|^(\s*)#{1,3}\s*(?:system|instructions?)\b/i;
const PROTOCOL_START = /^(\s*)(?:THINKING|TOOL|PARAMS|SUBQUESTIONS|ANSWER)\b/;

function quoteInline(line: string): string {
  let out = line;
  for (const pattern of INLINE_PATTERNS) {
    out = out.replace(pattern, (match, ...rest) => {
      const offset = rest[rest.length - 2] as number;
      const before = out.slice(Math.max(0, offset - QUOTED_PREFIX.length), offset);
      return before === QUOTED_PREFIX ? match : QUOTED_PREFIX + match;
    });
  }
  return out;
}

/** Breaks up marker look-alikes and rewrites instruction-like phrases visibly. */
export function neutralise(text: string): string {
  const cleaned = text
    .replace(OPEN_RUN, (run) => run.split("").join(" "))
    .replace(CLOSE_RUN, (run) => run.split("").join(" "))
    .replace(CONTROL_TOKENS, (token) => `${QUOTED_PREFIX}${token.replace(/[<>|[\]]/g, " ").trim()}`);
  return cleaned
    .split("\n")
    .map((line) => {
      const start = ROLE_START.exec(line) ?? PROTOCOL_START.exec(line);
      const indent = start ? (start[1] ?? start[2] ?? "") : "";
      const head = start ? `${indent}${QUOTED_PREFIX}${line.slice(indent.length)}` : line;
      return quoteInline(head);
    })
    .join("\n");
}

/** Removes what `neutralise` added, so a quote copied from fenced text can be checked against the source. */
export function stripNeutralisation(text: string): string {
  return text.split(QUOTED_PREFIX).join("");
}

function attr(value: string): string {
  return neutralise(value)
    .replace(/[\r\n\t]+/g, " ")
    .replace(/"/g, "'")
    .slice(0, 200);
}

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
