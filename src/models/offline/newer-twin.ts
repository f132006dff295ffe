import { termSet } from "../../text/overlap.js";
import type { Candidate } from "./candidates.js";
import { seriesOf } from "./compose.js";
import { newer, versionOf } from "./freshness.js";
import { hasCue, PRIOR_TIME } from "./question-cues.js";

/** Same series: the same title up to version and date, or (without titles) the same file name. */
function sameSeries(a: Candidate, b: Candidate): boolean {
  return a.title && b.title
    ? seriesOf(a.title) === seriesOf(b.title)
    : seriesOf(a.item.docId) === seriesOf(b.item.docId);
}

/** The words of a unit that are no figures: what stays when the next edition changes its values. */
function wordsOf(text: string): Set<string> {
  return new Set([...termSet(text)].filter((w) => !/\d/.test(w)));
}

/** Share of the words of `a` that `b` holds. */
function shared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0) return 0;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / a.size;
}

/**
 * The unit of a newer document of the same series (same source, title up to version or date) that says what a
 * chosen unit says, with its own value: the same table row of the next edition, the same clause of the current
 * terms. A chain that reaches a superseded edition (its search ranked the older one first) reads the current one.
 * Kept: a unit with no newer twin holding at least `minShare` of its words other than figures (a sibling row
 * shares the table's labels, not its own key), and every unit when the question
 * names a version or asks for an earlier state (then the older edition is what it wants).
 */
export function newerTwin(c: Candidate, all: readonly Candidate[], question: string, minShare: number): Candidate {
  if (minShare <= 0 || versionOf(question) || hasCue(question, PRIOR_TIME)) return c;
  const own = wordsOf(c.quote);
  let best: Candidate | undefined;
  let bestShare = minShare;
  for (const r of all) {
    if (r.item.docId === c.item.docId || r.item.source !== c.item.source || !sameSeries(r, c)) continue;
    if (newer(r.item, c.item) <= 0) continue;
    const share = shared(own, wordsOf(r.quote));
    if (share > bestShare || (share === bestShare && !best)) {
      best = r;
      bestShare = share;
    }
  }
  return best ?? c;
}

/** Each chosen unit, or its newer twin (`newerTwin`), without repeats. */
export function newerTwins(
  chosen: readonly Candidate[],
  all: readonly Candidate[],
  question: string,
  minShare: number,
): Candidate[] {
  const out: Candidate[] = [];
  for (const c of chosen) {
    const twin = newerTwin(c, all, question, minShare);
    if (!out.includes(twin)) out.push(twin);
  }
  return out;
}
