import { stripCitationMarkers } from "../safety/citation-markers.js";
import { stripNeutralisation } from "../safety/fence.js";
import { stripInvisible } from "../safety/visible-text.js";
import type { Citation, EvidenceItem } from "../spec/answer.js";
import type { DraftClaim } from "../spec/engine.js";
import { isWebUrl, textFragmentUrl } from "../text/text-fragment.js";

export interface CheckedClaim {
  text: string;
  /** Evidence numbers (`n` = evidence index + 1) whose quotes were found, in the order cited. */
  ns: number[];
}

export interface CitationCheck {
  /** Claims with at least one valid citation. */
  claims: CheckedClaim[];
  /** One entry per distinct (n, quote), in order of first use; `n` keeps the evidence numbering. */
  citations: Citation[];
  /** Claims with a citation that failed (kept or dropped). */
  unsupported: string[];
  /** Claims dropped because no citation of theirs held. */
  dropped: number;
  /** The claims joined, each followed by its markers `[n]`. */
  text: string;
}

/**
 * Keeps only citations that name evidence gathered in this run and whose quote occurs in that passage
 * (whitespace-normalised, case-insensitive, NFKC, invisible characters ignored on both sides, a `[quoted] `
 * prefix copied from the fence ignored). A claim left without a valid citation is dropped. Citation-like
 * markers inside a claim's own text (`[3]` copied from a passage) are removed: the only markers in the
 * answer are the ones added here.
 */
export function checkCitations(options: {
  claims: readonly DraftClaim[];
  evidence: readonly EvidenceItem[];
}): CitationCheck {
  const { evidence } = options;
  const claims: CheckedClaim[] = [];
  const citations: Citation[] = [];
  const seen = new Set<string>();
  const unsupported: string[] = [];
  let dropped = 0;
  for (const claim of options.claims) {
    const text = stripCitationMarkers(claim.text).trim();
    if (text === "") continue;
    const ns: number[] = [];
    let failed = claim.citations.length === 0;
    for (const cited of claim.citations) {
      const item = Number.isInteger(cited.n) ? evidence[cited.n - 1] : undefined;
      const quote = cleanQuote(cited.quote ?? "");
      if (item === undefined || quote === "" || !normalise(item.text).includes(quote)) {
        failed = true;
        continue;
      }
      if (!ns.includes(cited.n)) ns.push(cited.n);
      const key = `${cited.n}\u0000${quote}`;
      if (!seen.has(key)) {
        seen.add(key);
        citations.push({
          n: cited.n,
          passageId: item.id,
          docId: item.docId,
          source: item.source,
          quote: cited.quote.trim(),
          ...(isWebUrl(item.docId) ? { url: textFragmentUrl(item.docId, cited.quote) } : {}),
        });
      }
    }
    if (failed) unsupported.push(text);
    if (ns.length === 0) {
      dropped++;
      continue;
    }
    claims.push({ text, ns });
  }
  // Citations of claims that were kept only: a dropped claim has no valid citation, so none leak in.
  return { claims, citations, unsupported, dropped, text: claims.map(renderClaim).join(" ") };
}

export function renderClaim(claim: CheckedClaim): string {
  return `${claim.text} ${claim.ns.map((n) => `[${n}]`).join("")}`;
}

/** Invisible characters removed (as the fence shows text), NFKC, lower case, whitespace collapsed. */
export function normalise(text: string): string {
  return stripInvisible(text).normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** A quote as compared: normalised, without surrounding quotation marks or ellipses. */
function cleanQuote(quote: string): string {
  return normalise(stripNeutralisation(quote))
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, "")
    .replace(/^(\.\.\.|…)\s*|\s*(\.\.\.|…)$/g, "")
    .trim();
}
