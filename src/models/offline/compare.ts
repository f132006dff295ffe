import type { DraftClaim } from "../../spec/engine.js";
import type { QuestionPart } from "./analyze.js";

export interface Side {
  part: QuestionPart;
  n: number;
  quote: string;
}

const NUMBER =
  /(?<![\p{L}\d_-])(\d+(?:[.,]\d+)?)\s*(%|ms|milliseconds?|s\b|seconds?|minutes?|hours?|days?|weeks?|months?|years?|[KMG]B\b|requests? per second|engineers?)?/iu;

/** The first standalone number of a sentence, with its unit. */
export function numberIn(text: string): { value: number; unit: string } | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const value = Number(m[1]!.replace(",", "."));
  return Number.isFinite(value) ? { value, unit: m[2] ? ` ${m[2]}` : "" } : undefined;
}

/**
 * States the outcome of a quantitative comparison ("which is longer, A or B?") from one number cited for
 * each side: which side wins, both values, and the difference.
 */
export function comparisonClaim(sides: Side[]): DraftClaim | undefined {
  if (sides.length !== 2) return undefined;
  const [a, b] = sides as [Side, Side];
  const na = numberIn(a.quote);
  const nb = numberIn(b.quote);
  if (!na || !nb || !a.part.comparative || !a.part.alternative || !b.part.alternative) return undefined;
  if (na.value === nb.value) {
    return {
      text: `${a.part.alternative} and ${b.part.alternative} are equal: ${na.value}${na.unit} each.`,
      citations: [a, b].map((s) => ({ n: s.n, quote: s.quote })),
    };
  }
  const aWins = a.part.comparative === "max" ? na.value > nb.value : na.value < nb.value;
  const [win, winN, lose, loseN] = aWins ? [a, na, b, nb] : [b, nb, a, na];
  const diff = Math.round(Math.abs(winN.value - loseN.value) * 1000) / 1000;
  return {
    text:
      `${win.part.alternative} (${winN.value}${winN.unit}) over ${lose.part.alternative} (${loseN.value}${loseN.unit}), ` +
      `a difference of ${diff}${winN.unit === loseN.unit ? winN.unit : ""}.`,
    citations: [
      { n: win.n, quote: win.quote },
      { n: lose.n, quote: lose.quote },
    ],
  };
}
