import { useId, useLayoutEffect, useRef, useState } from "react";
import { docHref } from "../api.js";
import type { CitationSpan } from "./types.js";

/** The cited passage with the quoted span marked (or the whole passage when the span cannot be placed). */
export function HighlightedPassage({ citation }: { citation: CitationSpan }) {
  const { passageText: text, passage: span } = citation;
  if (!span) return <span className="passage">{text}</span>;
  return (
    <span className="passage">
      {text.slice(0, span.start)}
      <mark>{text.slice(span.start, span.end)}</mark>
      {text.slice(span.end)}
    </span>
  );
}

/**
 * A numbered citation: hovering or focusing it (or clicking, on a touch screen) shows a card with the source,
 * the document, the passage with the quote highlighted, whether the quote was found, and a link to the document
 * at that place. Escape closes it.
 */
export function CitationChip({ n, citation }: { n: number; citation: CitationSpan | undefined }) {
  const [open, setOpen] = useState(false);
  const cardId = useId();
  const wrapper = useRef<HTMLSpanElement>(null);
  const card = useRef<HTMLSpanElement>(null);
  const [place, setPlace] = useState({ right: false, up: false });
  // A chip near the right edge opens its card leftwards, one near the bottom of the conversation upwards.
  useLayoutEffect(() => {
    if (!open || !wrapper.current || !card.current) return;
    const chip = wrapper.current.getBoundingClientRect();
    const bottom = wrapper.current.closest(".messages")?.getBoundingClientRect().bottom ?? window.innerHeight;
    setPlace({
      right: chip.left + card.current.offsetWidth > document.documentElement.clientWidth - 8,
      up: chip.bottom + card.current.offsetHeight > bottom && chip.top - card.current.offsetHeight > 0,
    });
  }, [open]);
  if (!citation) return <span className="chip chip-missing">[{n}]</span>;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus-within open the card; the button inside is the control
    <span
      ref={wrapper}
      className="chip-wrap"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={(e) => {
        if (!wrapper.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") setOpen(false);
      }}
    >
      <button
        type="button"
        className="chip"
        aria-expanded={open}
        aria-controls={cardId}
        aria-label={`citation ${n}: ${citation.title ?? citation.docId}`}
        onClick={() => setOpen(true)}
      >
        {n}
      </button>
      {open && (
        <span
          ref={card}
          className={`citation-card${place.right ? " align-right" : ""}${place.up ? " align-up" : ""}`}
          id={cardId}
          role="dialog"
          aria-label={`citation ${n}`}
        >
          <span className="card-head">
            <span className="badge">{citation.source}</span> <strong>{citation.title ?? citation.docId}</strong>
          </span>
          <span className="card-doc">
            {citation.docId}
            {citation.locator ? ` · ${citation.locator}` : ""}
          </span>
          <HighlightedPassage citation={citation} />
          <span className="card-foot">
            <span className={citation.passage ? "ok" : "warn"}>
              {citation.passage
                ? `✓ quote found in the passage (characters ${citation.passage.start}–${citation.passage.end})`
                : "quote verified, but its place in the passage is unknown"}
            </span>
            <a href={docHref(citation.source, citation.docId, citation.document)}>Open the document here</a>
            {citation.url ? (
              <a href={citation.url} target="_blank" rel="noopener noreferrer">
                Open the page
              </a>
            ) : null}
          </span>
        </span>
      )}
    </span>
  );
}
