import type { EmbedderV1 } from "../spec/embedder.js";
import { InvalidInputError } from "../spec/errors.js";
import { terms } from "../text/tokenize.js";

export const MIN_HASH_DIMENSIONS = 8;
export const MAX_HASH_DIMENSIONS = 8192;

/**
 * `hash:<dims>`: a deterministic embedder by feature hashing. Each term of the text (`terms()` from the shared
 * tokenizer, so CJK is segmented the same way as the keyword index) is hashed to one of `dimensions` slots with a
 * hashed sign, weighted by 1 + log(tf), and the vector is L2-normalised.
 *
 * It is LEXICAL, NOT SEMANTIC: two texts are close only when they share words ("car" and "automobile" are
 * unrelated to it). It needs no model, no network and no download, costs microseconds per chunk, and gives the
 * same vector for the same text on every machine, which makes it the embedder for tests and benchmarks of the
 * vector path. A text with no terms embeds to the zero vector.
 */
export function createHashingEmbedder(options: { dimensions: number }): EmbedderV1 {
  const { dimensions } = options;
  if (!Number.isInteger(dimensions) || dimensions < MIN_HASH_DIMENSIONS || dimensions > MAX_HASH_DIMENSIONS) {
    throw new InvalidInputError(
      `hash embedder dimensions must be an integer from ${MIN_HASH_DIMENSIONS} to ${MAX_HASH_DIMENSIONS}, got ${dimensions}`,
      { field: "dimensions" },
    );
  }
  return {
    specificationVersion: "v1",
    id: `hash:${dimensions}`,
    dimensions: () => dimensions,
    async embed(texts, embedOptions) {
      embedOptions?.signal?.throwIfAborted();
      return texts.map((text) => hashVector(text, dimensions));
    },
  };
}

/** The feature-hashed, L2-normalised vector of one text. */
export function hashVector(text: string, dimensions: number): Float32Array {
  const counts = new Map<string, number>();
  for (const term of terms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  const vector = new Float32Array(dimensions);
  for (const [term, tf] of counts) {
    const h = fnv1a(term);
    const slot = h % dimensions;
    const sign = (mix(h) & 1) === 0 ? 1 : -1;
    vector[slot] = (vector[slot] ?? 0) + sign * (1 + Math.log(tf));
  }
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}

/** 32-bit FNV-1a over the UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A second, independent-looking hash of the first (murmur3 finaliser), for the sign. */
function mix(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}
