import type { ChunkRecord } from "../spec/document.js";
import { wordsSeparate } from "../text/segment.js";
import {
  cjkChars,
  indexTerms,
  isCjk,
  normalise,
  readText,
  sentences,
  type TokenTally,
  tokensOf,
  words,
} from "../text/tokenize.js";
import { type Section, sections } from "./sections.js";

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

const ZERO: TokenTally = { cjk: 0, latin: 0 };

function add(a: TokenTally, b: TokenTally): TokenTally {
  return { cjk: a.cjk + b.cjk, latin: a.latin + b.latin };
}

/**
 * A sentence (trimmed) or a window of one, read once: its token tally and its index words (normalised,
 * space-joined; `count` of them). Sentences never span a line, so never a section edge.
 */
interface Counted {
  start: number;
  end: number;
  tally: TokenTally;
  words: string;
  count: number;
}

/** A section with the range of its sentences (`from` to `to`, exclusive) and their summed tally. */
interface Part {
  start: number;
  end: number;
  path: string[];
  from: number;
  to: number;
  tally: TokenTally;
}

interface Atom extends Counted {
  tokens: number;
  paragraph: number;
}

/** Token tally and index words (space-joined groups) of a span. */
interface Reading {
  tally: TokenTally;
  words: string[];
}

/** A chunk span with the index words of its units, to join into its search text. */
interface Piece extends ChunkSpan {
  words: string[];
}

/** Offsets of `text.slice(start, end)` without leading and trailing whitespace. */
function trimSpan(text: string, start: number, end: number): [number, number] {
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return [start, end];
}

/** Tokens of one word, as `countTokens` counts a word on its own. */
function wordTokens(word: string): number {
  return isCjk(word) ? cjkChars(word) : 2;
}

/**
 * Splits an over-long sentence at word starts into windows of about `limit` tokens, each read. A window
 * whose words might read differently on its own (a cut inside a run of Chinese, say) is read again alone.
 */
function windows(text: string, start: number, end: number, limit: number): Counted[] {
  const out: Counted[] = [];
  let from = start;
  let tokens = 0;
  let latin = 0;
  let list: string[] = [];
  const push = (to: number) => {
    const [a, b] = trimSpan(text, from, to);
    if (b > a)
      out.push({
        start: a,
        end: b,
        tally: { cjk: cjkChars(text.slice(a, b)), latin },
        words: list.join(" "),
        count: list.length,
      });
  };
  for (const w of words(text.slice(start, end))) {
    const t = wordTokens(w.word);
    if (tokens > 0 && tokens + t > limit) {
      push(start + w.start);
      from = start + w.start;
      tokens = 0;
      latin = 0;
      list = [];
    }
    tokens += t;
    if (!isCjk(w.word)) latin++;
    list.push(normalise(w.word));
  }
  push(end);
  return out.map((w, i) => {
    const apart =
      (i === 0 || wordsSeparate(text, (out[i - 1] as Counted).end, w.start)) &&
      (i === out.length - 1 || wordsSeparate(text, w.end, (out[i + 1] as Counted).start));
    return apart ? w : { start: w.start, end: w.end, ...readText(text.slice(w.start, w.end)) };
  });
}

/**
 * A section's sentences as packing units, numbered by paragraph (blank-line separated); over-long sentences
 * are windowed. Counts and words come from reading each sentence once.
 */
function atoms(text: string, start: number, end: number, sents: Counted[], limit: number): Atom[] {
  const out: Atom[] = [];
  const breaks = [...text.slice(start, end).matchAll(/\n[ \t]*\n/g)].map((m) => start + (m.index ?? 0));
  let paragraph = 0;
  for (const s of sents) {
    while (paragraph < breaks.length && (breaks[paragraph] as number) <= s.start) paragraph++;
    const spans = tokensOf(s.tally) > limit ? windows(text, s.start, s.end, limit) : [s];
    for (const w of spans) out.push({ ...w, tokens: tokensOf(w.tally), paragraph });
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
  return out;
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

/** Sections with their sentences and tallies (sections are in order, sentences too: one pass). */
function parts(secs: Section[], sents: Counted[]): Part[] {
  const out: Part[] = [];
  let i = 0;
  for (const sec of secs) {
    while (i < sents.length && (sents[i] as Counted).start < sec.start) i++;
    const from = i;
    let tally = ZERO;
    while (i < sents.length && (sents[i] as Counted).start < sec.end) tally = add(tally, (sents[i++] as Counted).tally);
    out.push({ ...sec, from, to: i, tally });
  }
  return out;
}

/** Neighbouring sections joined while their combined size stays within `limit`. */
function merged(list: Part[], limit: number): Part[] {
  const out: Part[] = [];
  for (const part of list) {
    const last = out[out.length - 1];
    const tally = last ? add(last.tally, part.tally) : part.tally;
    if (last && tokensOf(tally) <= limit) {
      out[out.length - 1] = {
        ...part,
        start: last.start,
        from: last.from,
        path: commonPrefix([last.path, part.path]),
        tally,
      };
    } else out.push(part);
  }
  return out;
}

/**
 * Tally and index words of the text from unit `from` to unit `to` (exclusive): the units' own, summed,
 * where every joint between them keeps words apart (nearly always); otherwise the span read again whole,
 * so a chunk's count and words are always those of its text alone.
 */
function readUnits(text: string, units: readonly Counted[], from: number, to: number): Reading {
  let tally = ZERO;
  const words: string[] = [];
  for (let k = from; k < to; k++) {
    const unit = units[k] as Counted;
    if (k > from && !wordsSeparate(text, (units[k - 1] as Counted).end, unit.start)) {
      const whole = readText(text.slice((units[from] as Counted).start, (units[to - 1] as Counted).end));
      return { tally: whole.tally, words: whole.count > 0 ? [whole.words] : [] };
    }
    tally = add(tally, unit.tally);
    if (unit.count > 0) words.push(unit.words);
  }
  return { tally, words };
}

/**
 * Chunk spans with their index words. Linear in the text: sentences are found and read (tallied, words
 * normalised) once, and every larger count or word list is put together from theirs.
 */
function pieces(text: string, o: Required<ChunkOptions>): Piece[] {
  const [docStart, docEnd] = trimSpan(text, 0, text.length);
  if (docEnd <= docStart) return [];
  const sents: Counted[] = sentences(text).map((s) => ({ start: s.start, end: s.end, ...readText(s.text) }));
  const all = parts(sections(text), sents);
  const secs = o.mergeSections ? merged(all, o.targetTokens) : all;
  if (tokensOf(all.reduce((sum, p) => add(sum, p.tally), ZERO)) <= o.targetTokens) {
    const { tally, words } = readUnits(text, sents, 0, sents.length);
    const section = commonPrefix(secs.map((s) => s.path));
    return [{ start: docStart, end: docEnd, section, tokens: tokensOf(tally), words }];
  }
  const out: Piece[] = [];
  for (const sec of secs) {
    const [start, end] = trimSpan(text, sec.start, sec.end);
    if (end <= start) continue;
    if (tokensOf(sec.tally) <= o.maxTokens) {
      const { tally, words } = readUnits(text, sents, sec.from, sec.to);
      out.push({ start, end, section: sec.path, tokens: tokensOf(tally), words });
      continue;
    }
    const list = atoms(text, start, end, sents.slice(sec.from, sec.to), o.targetTokens);
    for (const [a, b] of pack(list, o)) {
      const { tally, words } = readUnits(text, list, a, b);
      out.push({
        start: (list[a] as Atom).start,
        end: (list[b - 1] as Atom).end,
        section: sec.path,
        tokens: tokensOf(tally),
        words,
      });
    }
  }
  return out;
}

/** Chunk spans of a text. Each span's text is `text.slice(start, end)`, with no surrounding whitespace. */
export function chunkText(options: { text: string } & ChunkOptions): ChunkSpan[] {
  return pieces(options.text, { ...DEFAULT_CHUNK_OPTIONS, ...options }).map(({ start, end, section, tokens }) => ({
    start,
    end,
    section,
    tokens,
  }));
}

/**
 * Chunks of a document: ids `<docId>::<ordinal>`, searchText of the chunk text alone (its words, read with
 * the sentences, with their glosses, then the CJK bigrams and glosses of the chunk text, as `searchText` gives them).
 */
export function chunkDocument(options: { doc: { id: string; text: string } } & ChunkOptions): ChunkRecord[] {
  const { doc, ...rest } = options;
  return pieces(doc.text, { ...DEFAULT_CHUNK_OPTIONS, ...rest }).map((piece, ordinal) => {
    const text = doc.text.slice(piece.start, piece.end);
    return {
      id: `${doc.id}::${ordinal}`,
      docId: doc.id,
      ordinal,
      text,
      section: piece.section,
      start: piece.start,
      end: piece.end,
      tokens: piece.tokens,
      // piece.words are space-joined groups, one per sentence read.
      searchText: indexTerms(piece.words.join(" ").split(" ").filter(Boolean), text).join(" "),
    };
  });
}
