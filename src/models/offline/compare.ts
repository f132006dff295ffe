import type { DraftClaim } from "../../spec/engine.js";
import type { QuestionPart } from "./analyze.js";
import type { OrderedValue } from "./compare-values.js";

export interface Side {
  part: QuestionPart;
  n: number;
  quote: string;
  /** The side's value as read from its unit ("17 SDR per kg" from a row of many numbers); else the quote is read. */
  value?: string;
  /** The side's time of day or rating, when its unit gives one (compare-values.ts). */
  ordered?: OrderedValue;
}

const NUMBER =
  /(?<![\p{L}\d_-])(\d+(?:[.,]\d+)?)\s*(%|ms|milliseconds?|s\b|seconds?|minutes?|hours?|days?|weeks?|months?|years?|[KMG]B\b|requests? per second|engineers?)?/iu;

/** The value of a sentence: the first standalone number after its last label ("Engineers: 7"), else the first. */
export function numberIn(text: string): { value: number; unit: string } | undefined {
  const label = Math.max(text.lastIndexOf(": "), text.lastIndexOf("| ", text.trimEnd().length - 2));
  const m = (label > 0 ? NUMBER.exec(text.slice(label)) : null) ?? NUMBER.exec(text);
  if (!m) return undefined;
  const value = Number(m[1]!.replace(",", "."));
  return Number.isFinite(value) ? { value, unit: m[2] ? ` ${m[2]}` : "" } : undefined;
}

/** Seconds per time unit, so "47 minutes" and "20 seconds" compare as durations. */
const SECONDS: [RegExp, number][] = [
  [/^(?:ms|milliseconds?)$/i, 0.001],
  [/^(?:s|secs?|seconds?)$/i, 1],
  [/^(?:mins?|minutes?)$/i, 60],
  [/^(?:h|hrs?|hours?)$/i, 3600],
  [/^days?$/i, 86400],
  [/^weeks?$/i, 604800],
  [/^months?$/i, 2629800],
  [/^years?$/i, 31557600],
];

function inSeconds(n: { value: number; unit: string }): number | undefined {
  const factor = SECONDS.find(([re]) => re.test(n.unit.trim()))?.[1];
  return factor === undefined ? undefined : n.value * factor;
}

/**
 * States the outcome of a quantitative comparison ("which is longer, A or B?") from one number cited for
 * each side: which side wins, both values, and the difference.
 */
export function comparisonClaim(sides: Side[]): DraftClaim | undefined {
  if (sides.length !== 2) return undefined;
  const [a, b] = sides as [Side, Side];
  const ordered = orderedClaim(a, b);
  if (ordered) return ordered;
  const na = numberIn(a.value ?? a.quote);
  const nb = numberIn(b.value ?? b.quote);
  if (!na || !nb || !a.part.comparative || !a.part.alternative || !b.part.alternative) return undefined;
  if (na.value === nb.value) {
    return {
      text: `${a.part.alternative} and ${b.part.alternative} are equal: ${na.value}${na.unit} each.`,
      citations: [a, b].map((s) => ({ n: s.n, quote: s.quote })),
    };
  }
  // Durations in different units compare in seconds; other values only when their units agree.
  const sa = inSeconds(na);
  const sb = inSeconds(nb);
  const comparable = sa !== undefined && sb !== undefined;
  if (!comparable && na.unit.trim() !== nb.unit.trim()) return undefined;
  const va = comparable ? sa : na.value;
  const vb = comparable ? sb : nb.value;
  const aWins = a.part.comparative === "max" ? va > vb : va < vb;
  const [win, winN, lose, loseN] = aWins ? [a, na, b, nb] : [b, nb, a, na];
  const sameUnit = winN.unit === loseN.unit;
  const diff = sameUnit
    ? `${Math.round(Math.abs(winN.value - loseN.value) * 1000) / 1000}${winN.unit}`
    : `${Math.round(Math.abs(va - vb) * 1000) / 1000} seconds`;
  return {
    text:
      `${win.part.alternative} (${win.value ?? `${winN.value}${winN.unit}`}) over ` +
      `${lose.part.alternative} (${lose.value ?? `${loseN.value}${loseN.unit}`}), ` +
      `a difference of ${diff}.`,
    citations: [
      { n: win.n, quote: win.quote },
      { n: lose.n, quote: lose.quote },
    ],
  };
}

/**
 * The outcome from each side's time of day or rating, when both sides give one of the same kind from a
 * field labelled by the attribute: "Alder (09:15) over Birch (10:40), 85 minutes apart" for
 * "which opens earlier"; "Alder (high) over Birch (medium)" for "which one got the graver rating".
 */
function orderedClaim(a: Side, b: Side): DraftClaim | undefined {
  const oa = a.ordered;
  const ob = b.ordered;
  if (!oa || !ob || oa.kind !== ob.kind || !a.part.comparative || !a.part.alternative || !b.part.alternative)
    return undefined;
  // Only values under a label naming the attribute: an incident's start time is not how long it lasted.
  if (!(oa.labelled && ob.labelled)) return undefined;
  const citations = (x: Side, y: Side) => [
    { n: x.n, quote: x.quote },
    { n: y.n, quote: y.quote },
  ];
  if (oa.rank === ob.rank) {
    return {
      text: `${a.part.alternative} and ${b.part.alternative} are equal: ${oa.text} each.`,
      citations: citations(a, b),
    };
  }
  const aWins = a.part.comparative === "max" ? oa.rank > ob.rank : oa.rank < ob.rank;
  const [win, lose] = aWins ? [a, b] : [b, a];
  const gap = oa.kind === "clock" ? `, ${Math.abs(oa.rank - ob.rank)} minutes apart` : "";
  return {
    text: `${win.part.alternative} (${win.ordered!.text}) over ${lose.part.alternative} (${lose.ordered!.text})${gap}.`,
    citations: citations(win, lose),
  };
}
