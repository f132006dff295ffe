import type { ChunkRecord } from "../spec/document.js";
import { countTokens, searchText, sentences, words } from "../text/tokenize.js";
import { sections } from "./sections.js";

/**
 * Defaults, and why. Measured with BM25 (title, section and chunk text indexed) over the 49 Northwind
 * Markdown documents and its 38 answerable document questions, passages de-duplicated by document:
 *   one chunk per section (this default)            281 chunks, ~61 tokens, doc recall@5 0.895
 *   sections merged up to 256 tokens               96 chunks, ~177 tokens, recall@5 0.842
 *   whole documents                                 49 chunks, ~345 tokens, recall@5 0.855
 * Section-sized chunks find as much or more and hand the planner five times less text, so:
 * - A section of up to `maxTokens` (384) stays whole: an endpoint, a runbook step or a policy clause is a
 *   unit, and a citation points at the whole clause. Sections are not merged (`mergeSections` false).
 * - Longer sections split at paragraph ends, then sentence ends, into pieces of about `targetTokens` (256),
 *   enough to carry a fact with its subject without diluting BM25.
 * - A cut inside a paragraph repeats the last sentence (`overlapSentences` 1, at most `overlapMaxTokens` 64)
 *   at the start of the next piece, since the next sentence often refers back to it ("It times out after
 *   45 s"); a cut at a paragraph end does not, because a new paragraph seldom leans on the last one.
 * - A document of up to `targetTokens` is one chunk whatever its headings (table rows, short notes).
 */
export interface ChunkOptions {
  targetTokens?: number;
  maxTokens?: number;
  overlapSentences?: number;
  overlapMaxTokens?: number;
  /** Join neighbouring sections while together they stay within `targetTokens`. */
  mergeSections?: boolean;
}

export const DEFAULT_CHUNK_OPTIONS: Required<ChunkOptions> = {
  targetTokens: 256,
  maxTokens: 384,
  overlapSentences: 1,
  overlapMaxTokens: 64,
  mergeSections: false,
};

export interface ChunkSpan {
  start: number;
  end: number;
  section: string[];
  tokens: number;
}

interface Atom {
  start: number;
  end: number;
  tokens: number;
  paragraph: number;
}

/** Offsets of `text.slice(start, end)` without leading and trailing whitespace. */
function trimSpan(text: string, start: number, end: number): [number, number] {
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return [start, end];
}

/** Splits an over-long sentence at word starts into windows of about `limit` tokens. */
function windows(text: string, start: number, end: number, limit: number): [number, number][] {
  const ws = words(text.slice(start, end));
  const out: [number, number][] = [];
  let from = start;
  let tokens = 0;
  for (const w of ws) {
    const t = countTokens(w.word);
    if (tokens > 0 && tokens + t > limit) {
      out.push(trimSpan(text, from, start + w.start));
      from = start + w.start;
      tokens = 0;
    }
    tokens += t;
  }
  out.push(trimSpan(text, from, end));
  return out.filter(([a, b]) => b > a);
}

/** Sentences of a span, grouped by paragraph (blank-line separated); over-long sentences are windowed. */
function atoms(text: string, start: number, end: number, limit: number): Atom[] {
  const out: Atom[] = [];
  const slice = text.slice(start, end);
  const breaks = [...slice.matchAll(/\n[ \t]*\n/g)].map((m) => start + (m.index ?? 0));
  let paragraph = 0;
  let from = start;
  for (const cut of [...breaks, end]) {
    for (const s of sentences(text.slice(from, cut))) {
      const a = from + s.start;
      const b = from + s.end;
      const tokens = countTokens(s.text);
      const spans: [number, number][] = tokens > limit ? windows(text, a, b, limit) : [[a, b]];
      for (const [x, y] of spans) out.push({ start: x, end: y, tokens: countTokens(text.slice(x, y)), paragraph });
    }
    paragraph++;
    from = cut;
  }
  return out;
}

/** Packs a section's sentences into pieces of about `target` tokens, preferring paragraph ends. */
function pack(list: Atom[], o: Required<ChunkOptions>): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < list.length) {
    let j = i;
    let tokens = 0;
    while (j < list.length && (j === i || tokens + (list[j] as Atom).tokens <= o.targetTokens)) {
      tokens += (list[j] as Atom).tokens;
      j++;
    }
    // Back up to the last paragraph end if that keeps the piece at least half full.
    if (j < list.length && (list[j] as Atom).paragraph === (list[j - 1] as Atom).paragraph) {
      let k = j - 1;
      let kept = tokens - (list[j - 1] as Atom).tokens;
      while (k > i && (list[k] as Atom).paragraph === (list[k - 1] as Atom).paragraph) {
        kept -= (list[k - 1] as Atom).tokens;
        k--;
      }
      if (k > i && kept >= o.targetTokens / 2) j = k;
    }
    out.push([i, j]);
    if (j >= list.length) break;
    // Overlap only when the cut falls inside a paragraph.
    let next = j;
    if ((list[j] as Atom).paragraph === (list[j - 1] as Atom).paragraph) {
      let overlap = 0;
      while (
        next - 1 > i &&
        j - (next - 1) <= o.overlapSentences &&
        overlap + (list[next - 1] as Atom).tokens <= o.overlapMaxTokens
      ) {
        overlap += (list[next - 1] as Atom).tokens;
        next--;
      }
    }
    i = next;
  }
  return out.map(([a, b]) => [(list[a] as Atom).start, (list[b - 1] as Atom).end]);
}

function commonPrefix(paths: string[][]): string[] {
  const first = paths[0] ?? [];
  let n = first.length;
  for (const p of paths) {
    let k = 0;
    while (k < n && p[k] === first[k]) k++;
    n = k;
  }
  return first.slice(0, n);
}

/** Neighbouring sections joined while their combined size stays within `limit`. */
function merged(text: string, secs: ReturnType<typeof sections>, limit: number): ReturnType<typeof sections> {
  const out: ReturnType<typeof sections> = [];
  for (const sec of secs) {
    const last = out[out.length - 1];
    if (last && countTokens(text.slice(last.start, sec.end)) <= limit) {
      out[out.length - 1] = { start: last.start, end: sec.end, path: commonPrefix([last.path, sec.path]) };
    } else out.push({ ...sec });
  }
  return out;
}

/** Chunk spans of a text. Each span's text is `text.slice(start, end)`, with no surrounding whitespace. */
export function chunkText(options: { text: string } & ChunkOptions): ChunkSpan[] {
  const o = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  const { text } = options;
  const secs = o.mergeSections ? merged(text, sections(text), o.targetTokens) : sections(text);
  const [docStart, docEnd] = trimSpan(text, 0, text.length);
  if (docEnd <= docStart) return [];
  const whole = countTokens(text);
  if (whole <= o.targetTokens) {
    return [{ start: docStart, end: docEnd, section: commonPrefix(secs.map((s) => s.path)), tokens: whole }];
  }
  const out: ChunkSpan[] = [];
  for (const sec of secs) {
    const [start, end] = trimSpan(text, sec.start, sec.end);
    if (end <= start) continue;
    const tokens = countTokens(text.slice(start, end));
    const spans: [number, number][] =
      tokens <= o.maxTokens ? [[start, end]] : pack(atoms(text, start, end, o.targetTokens), o);
    for (const [a, b] of spans)
      out.push({ start: a, end: b, section: sec.path, tokens: countTokens(text.slice(a, b)) });
  }
  return out;
}

/** Chunks of a document: ids `<docId>::<ordinal>`, searchText of the chunk text alone. */
export function chunkDocument(options: { doc: { id: string; text: string } } & ChunkOptions): ChunkRecord[] {
  const { doc, ...rest } = options;
  return chunkText({ ...rest, text: doc.text }).map((span, ordinal) => {
    const text = doc.text.slice(span.start, span.end);
    return {
      id: `${doc.id}::${ordinal}`,
      docId: doc.id,
      ordinal,
      text,
      section: span.section,
      start: span.start,
      end: span.end,
      tokens: span.tokens,
      searchText: searchText(text),
    };
  });
}
