/**
 * A synthetic corpus for the bench: seeded, so every run and every baseline sees the same text. Words follow a
 * Zipfian distribution over a vocabulary of English function words followed by generated content words;
 * documents have titles, sections and ~5 chunks; a fixed set of facts ("The codename of Varnok Tesh is
 * Quilmaro.") is planted in known chunks, with decoy mentions of the same entities elsewhere, so questions
 * have checkable answers. Documents are generated on demand (one PRNG per document), never all held at once.
 */
import { createHash } from "node:crypto";
import type { ChunkRecord, DocumentRecord, DocumentWrite } from "../src/spec/document.js";
import { countTokens, searchText, terms } from "../src/text/tokenize.js";
import { pick, type Random, randomInt, seededRandom, zipfSampler } from "../test/fixtures/prng.js";

const FUNCTION_WORDS = (
  "the of and to a in is that for it as was with be by on are or from at this which but have an they were " +
  "their has would when if will can its into some could them these may then do any more most other such only " +
  "also than so there been each both about after before between"
).split(" ");

const ONSETS = "b br c ch d dr f fl g gr h j k l m n p pl pr r s sh sk st t th tr v w z".split(" ");
const VOWELS = "a e i o u ai ea ou io ae".split(" ");
const CODAS = ["", "", "", "n", "r", "s", "l", "t", "m", "nd", "st", "x"];

const ATTRIBUTES = [
  "codename",
  "launch year",
  "chief engineer",
  "budget code",
  "home port",
  "primary supplier",
  "reactor model",
  "founding city",
] as const;

export const VOCABULARY_SIZE = 30_000;
const ZIPF_EXPONENT = 1.07;
const FACT_COUNT = 100;

export interface PlantedFact {
  index: number;
  entity: string;
  attribute: string;
  value: string;
  /** The sentence planted in the text. */
  sentence: string;
  /** "What is the <attribute> of <entity>?" */
  question: string;
  docId: string;
  chunkId: string;
}

interface Line {
  text: string;
  terms: string;
  words: number;
}

export interface CorpusOptions {
  /** Total chunks (documents have 3..7 chunks, ~5 on average). */
  chunks: number;
  seed?: number;
  source?: string;
  tenant?: string;
  /**
   * Hard negatives per fact: chunks elsewhere that name the entity and the attribute without the value
   * ("The codename of Varnok Tesh was discussed in the ... review."), so one query for several facts
   * competes with them for the top k. Default 0.
   */
  hardNegatives?: number;
}

export interface Corpus {
  readonly chunkCount: number;
  readonly documentCount: number;
  readonly source: string;
  readonly tenant: string;
  readonly vocabulary: readonly string[];
  readonly facts: readonly PlantedFact[];
  /** Every document with its chunks, in order, generated lazily. */
  documents(): Generator<DocumentWrite>;
  /** The documents in batches of `size` documents. */
  batches(size: number): Generator<DocumentWrite[]>;
  /**
   * Checks the first `documents` documents' chunks against the shared tokenizer (`searchText`, `countTokens`):
   * chunks take their terms from the generated words (fast), and this proves they match. Throws on a difference.
   */
  verify(documents: number): void;
  /** Keyword queries of 2..4 content words drawn from the Zipfian vocabulary (some name a planted entity). */
  keywordQueries(count: number): string[];
}

function word(random: Random, syllables: number): string {
  let out = "";
  for (let s = 0; s < syllables; s++) out += pick(random, ONSETS) + pick(random, VOWELS);
  return out + pick(random, CODAS);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function buildVocabulary(random: Random): string[] {
  const seen = new Set<string>(FUNCTION_WORDS);
  const out = [...FUNCTION_WORDS];
  while (out.length < VOCABULARY_SIZE) {
    const w = word(random, randomInt(random, 1, 3));
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

/** Chunk counts per document: 3..7 (5 on average), the same for a document index whatever the corpus size. */
function chunksOfDoc(seed: number, index: number): number {
  let h = Math.imul(index ^ seed, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return 3 + ((h >>> 0) % 5);
}

export function createCorpus(options: CorpusOptions): Corpus {
  const seed = options.seed ?? 42;
  const source = options.source ?? "bench";
  const tenant = options.tenant ?? "default";
  const vocabulary = buildVocabulary(seededRandom(seed));
  const vocabSet = new Set(vocabulary);

  // Document sizes, until the requested chunk count (the last document is cut short).
  const sizes: number[] = [];
  let total = 0;
  while (total < options.chunks) {
    const n = Math.min(chunksOfDoc(seed, sizes.length), options.chunks - total);
    sizes.push(n);
    total += n;
  }

  // Facts: the same entities and values at every scale; only where they are planted depends on the size.
  const factRandom = seededRandom(seed ^ 0x5eed);
  const name = () => {
    for (;;) {
      const w = word(factRandom, 3);
      if (!vocabSet.has(w)) return capitalise(w);
    }
  };
  const facts: PlantedFact[] = [];
  const placed = new Map<string, PlantedFact>();
  const decoys = new Map<string, string[]>();
  const addDecoy = (chunkId: string, text: string) => decoys.set(chunkId, [...(decoys.get(chunkId) ?? []), text]);
  for (let i = 0; i < FACT_COUNT; i++) {
    const entity = `${name()} ${name()}`;
    const attribute = ATTRIBUTES[i % ATTRIBUTES.length] ?? "codename";
    const value =
      attribute === "launch year"
        ? String(1950 + ((i * 37) % 70))
        : attribute === "budget code"
          ? `${name().slice(0, 2).toUpperCase()}-${1000 + ((i * 7919) % 9000)}`
          : name();
    const docIndex = Math.min(sizes.length - 1, Math.floor(((i + 0.5) * sizes.length) / FACT_COUNT));
    const ordinal = i % (sizes[docIndex] ?? 1);
    const docId = `doc-${docIndex}.md`;
    const fact: PlantedFact = {
      index: i,
      entity,
      attribute,
      value,
      sentence: `The ${attribute} of ${entity} is ${value}.`,
      question: `What is the ${attribute} of ${entity}?`,
      docId,
      chunkId: `${docId}::${ordinal}`,
    };
    facts.push(fact);
    placed.set(fact.chunkId, fact);
    for (const shift of [0.31, 0.67]) {
      const decoyDoc = Math.floor((docIndex + shift * sizes.length) % sizes.length);
      addDecoy(
        `doc-${decoyDoc}.md::0`,
        `${entity} was mentioned in the ${vocabulary[randomInt(factRandom, 200, 2000)]} review.`,
      );
    }
    for (let h = 0; h < (options.hardNegatives ?? 0); h++) {
      const decoyDoc = Math.floor((docIndex + (0.13 + 0.11 * h) * sizes.length) % sizes.length);
      addDecoy(
        `doc-${decoyDoc}.md::1`,
        `The ${attribute} of ${entity} was discussed in the ${vocabulary[randomInt(factRandom, 200, 2000)]} review.`,
      );
    }
  }

  const rank = zipfSampler({ size: vocabulary.length, exponent: ZIPF_EXPONENT });

  /** A sentence and its index terms (the generated words, lower case: what `searchText` yields for them). */
  function sentence(random: Random): Line {
    const n = randomInt(random, 8, 18);
    const words: string[] = [];
    const parts: string[] = [];
    for (let w = 0; w < n; w++) {
      const chosen = vocabulary[rank(random)] ?? "the";
      words.push(chosen);
      parts.push(w > 2 && w < n - 2 && random() < 0.06 ? `${chosen},` : chosen);
    }
    return { text: `${capitalise(parts.join(" "))}.`, terms: words.join(" "), words: n };
  }

  /** A fixed sentence, segmented by the shared tokenizer. */
  function planted(text: string): Line {
    return { text, terms: searchText(text), words: terms(text).length };
  }

  function makeDocument(index: number): DocumentWrite {
    const random = seededRandom((seed * 1_000_003 + index) >>> 0);
    const topic = () => vocabulary[randomInt(random, 100, 4000)] ?? "topic";
    const id = `doc-${index}.md`;
    const title = [topic(), topic(), topic()].map(capitalise).join(" ");
    const count = sizes[index] ?? 0;
    const sectionCount = Math.min(count, randomInt(random, 1, 3));
    const headings = Array.from({ length: sectionCount }, () => capitalise(`${topic()} ${topic()}`));
    let text = `# ${title}\n\n`;
    let heading = -1;
    const chunks: ChunkRecord[] = [];
    for (let ordinal = 0; ordinal < count; ordinal++) {
      const h = Math.floor((ordinal * sectionCount) / count);
      if (h !== heading) {
        heading = h;
        text += `## ${headings[h]}\n\n`;
      }
      const chunkId = `${id}::${ordinal}`;
      const lines = Array.from({ length: randomInt(random, 5, 7) }, () => sentence(random));
      const fact = placed.get(chunkId);
      if (fact) lines.splice(1, 0, planted(fact.sentence));
      for (const decoy of decoys.get(chunkId) ?? []) lines.splice(lines.length - 1, 0, planted(decoy));
      const body = lines.map((line) => line.text).join(" ");
      const start = text.length;
      text += `${body}\n\n`;
      chunks.push({
        id: chunkId,
        docId: id,
        ordinal,
        text: body,
        section: [title, headings[h] ?? ""],
        start,
        end: start + body.length,
        tokens: Math.ceil((lines.reduce((sum, line) => sum + line.words, 0) * 4) / 3),
        searchText: lines.map((line) => line.terms).join(" "),
      });
    }
    const year = 2019 + (index % 7);
    const doc: DocumentRecord = {
      id,
      source,
      tenant,
      title,
      updatedAt: `${year}-${String(1 + (index % 12)).padStart(2, "0")}-${String(1 + (index % 28)).padStart(2, "0")}`,
      acl: [],
      contentHash: createHash("sha256").update(text).digest("hex"),
      text,
      metadata: {},
    };
    return { doc, chunks };
  }

  return {
    chunkCount: total,
    documentCount: sizes.length,
    source,
    tenant,
    vocabulary,
    facts,
    *documents() {
      for (let i = 0; i < sizes.length; i++) yield makeDocument(i);
    },
    *batches(size: number) {
      let batch: DocumentWrite[] = [];
      for (let i = 0; i < sizes.length; i++) {
        batch.push(makeDocument(i));
        if (batch.length === size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    verify(documents: number) {
      for (let i = 0; i < Math.min(documents, sizes.length); i++) {
        for (const chunk of makeDocument(i).chunks) {
          if (chunk.searchText !== searchText(chunk.text) || chunk.tokens !== countTokens(chunk.text)) {
            throw new Error(`corpus chunk ${chunk.id} disagrees with the shared tokenizer`);
          }
        }
      }
    },
    keywordQueries(count: number) {
      const random = seededRandom(seed ^ 0x9e3779b9);
      const out: string[] = [];
      while (out.length < count) {
        const words = new Set<string>();
        const want = randomInt(random, 2, 4);
        if (random() < 0.25) words.add(pick(random, facts).entity.split(" ")[0]!.toLowerCase());
        while (words.size < want) {
          const r = rank(random);
          if (r >= FUNCTION_WORDS.length) words.add(vocabulary[r] ?? "");
        }
        out.push([...words].join(" "));
      }
      return out;
    },
  };
}
