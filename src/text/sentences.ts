/**
 * Sentences with offsets, in one pass over ICU's sentence segments: a break after an abbreviation ("Dr.",
 * "z. B."), after an initial inside a name ("Mr. J. Smith") or after a German ordinal day before a month
 * ("am 3. März") is not a sentence end, so the two segments make one sentence. A join never crosses a line
 * break (a heading, list item or paragraph starts a new sentence), and each sentence is sliced from the
 * text once, when it is closed: the work is linear in the text however many segments are joined.
 */
import { isAbbreviation, isOrdinalMonth } from "./abbreviations.js";
import { sentenceSegments } from "./segment.js";

export interface Sentence {
  text: string;
  start: number;
  end: number;
}

/** A tally of the characters the splitter looked at, for tests that check it stays linear. */
export interface SplitWork {
  steps: number;
}

/** How far back from a segment's end the abbreviation check looks (constant: it bounds the work per join). */
const TAIL = 24;

/** The word before a segment's closing period (markup such as `**` allowed after it), with the word before it. */
const BEFORE_PERIOD = /(?:^|[\s([*_"'„“])((?:\p{L}\.)*\p{L}{1,6})\.[*_]*$/u;
const PREVIOUS_WORD = /(\S+)\s+$/u;
const ORDINAL_DAY = /(?:^|\s)\d{1,2}\.$/u;
const FIRST_WORD = /^\s*[*_]*(\p{L}+)/u;

/** How a segment ends, for deciding whether the next one continues it. */
type Ending = "stop" | "abbreviation" | "ordinal";

/** Does a segment end in an abbreviation or an initial (rather than a full stop)? Looks at its last characters only. */
export function endingOf(segment: string, work?: SplitWork): Ending {
  const tail = segment.slice(-TAIL);
  if (work) work.steps += tail.length;
  if (ORDINAL_DAY.test(tail)) return "ordinal";
  const match = BEFORE_PERIOD.exec(tail);
  const word = match?.[1];
  if (match === null || word === undefined) return "stop";
  if (isAbbreviation(word) || word.includes(".")) return "abbreviation";
  if (!/^\p{L}$/u.test(word)) return "stop";
  if (/^\p{Ll}$/u.test(word)) return "abbreviation";
  // An upper-case initial continues only inside a name: the word before it is capitalised or an initial itself.
  const before = PREVIOUS_WORD.exec(tail.slice(0, match.index + match[0].indexOf(word)))?.[1] ?? "";
  return /^[*_("'„“]*\p{Lu}/u.test(before) || /^\p{L}\.$/u.test(before) ? "abbreviation" : "stop";
}

/** Does the next segment continue a segment with this ending? */
function continues(ending: Ending, next: string): boolean {
  if (ending === "abbreviation") return true;
  if (ending === "ordinal") return isOrdinalMonth(FIRST_WORD.exec(next.slice(0, TAIL))?.[1] ?? "");
  return false;
}

/** Sentences with offsets (trailing whitespace trimmed); handles 。！？ as well as Latin punctuation. */
export function splitSentences(text: string, work?: SplitWork): Sentence[] {
  const out: Sentence[] = [];
  let open: { start: number; end: number } | undefined;
  let ending: Ending = "stop";
  const close = (span: { start: number; end: number }) => {
    if (work) work.steps += span.end - span.start;
    out.push({ text: text.slice(span.start, span.end), start: span.start, end: span.end });
  };
  for (const seg of sentenceSegments(text)) {
    if (work) work.steps += seg.segment.length;
    const trimmed = seg.segment.trimEnd();
    const lead = trimmed.length - trimmed.trimStart().length;
    if (lead === trimmed.length) {
      ending = "stop";
      continue;
    }
    const start = seg.index + lead;
    const end = seg.index + trimmed.length;
    if (open && continues(ending, text.slice(start, start + TAIL))) open.end = end;
    else {
      if (open) close(open);
      open = { start, end };
    }
    const gap = seg.segment.slice(trimmed.length);
    const tail = text.slice(Math.max(open.start, end - TAIL), end);
    ending = gap.includes("\n") || gap.includes("\r") ? "stop" : endingOf(tail, work);
  }
  if (open) close(open);
  return out;
}
