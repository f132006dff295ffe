/** Random-but-clustered unit vectors (no model): points scattered around seeded random centroids. */
import { gaussian, type Random, seededRandom } from "../test/fixtures/prng.js";

export interface ClusteredVectors {
  dims: number;
  /** Draws the next vector (unit length). */
  next(): Float32Array;
}

function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += (v[i] ?? 0) ** 2;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) * scale;
  return v;
}

/**
 * `clusters` unit centroids; each vector is a centroid plus Gaussian noise of total norm about `spread`,
 * normalised. Two generators with the same seed and different `stream` share centroids but not points
 * (so query vectors come from the same distribution as the data without being data points).
 */
export function clusteredVectors(options: {
  dims: number;
  clusters: number;
  spread: number;
  seed: number;
  stream?: number;
}): ClusteredVectors {
  const { dims, clusters, spread, seed } = options;
  const centroidRandom = seededRandom(seed);
  const centroids = Array.from({ length: clusters }, () =>
    normalise(Float32Array.from({ length: dims }, () => gaussian(centroidRandom))),
  );
  const random: Random = seededRandom((seed * 31 + (options.stream ?? 1) * 7919) >>> 0);
  const sigma = spread / Math.sqrt(dims);
  return {
    dims,
    next() {
      const c = centroids[Math.floor(random() * clusters)] ?? centroids[0]!;
      const v = new Float32Array(dims);
      for (let i = 0; i < dims; i++) v[i] = (c[i] ?? 0) + sigma * gaussian(random);
      return normalise(v);
    },
  };
}

/**
 * Vectors shaped like a sentence-embedding model's (384 dimensions, as the small models): 100 topics, points
 * spread around them; queries come from the same topics (another `stream`). Shared by the benches that measure
 * an HNSW index on such vectors.
 */
export const MODEL_LIKE = { dims: 384, clusters: 100, spread: 0.9, seed: 7 } as const;

/** Exact top-k by dot product (cosine for unit vectors) over a packed matrix, in plain JS. */
export function bruteForceTopK(matrix: Float32Array, dims: number, query: Float32Array, k: number): number[] {
  const n = matrix.length / dims;
  const bestIdx: number[] = [];
  const bestScore: number[] = [];
  for (let row = 0; row < n; row++) {
    let dot = 0;
    const base = row * dims;
    for (let i = 0; i < dims; i++) dot += (matrix[base + i] as number) * (query[i] as number);
    if (bestIdx.length < k || dot > (bestScore[bestScore.length - 1] as number)) {
      let at = bestScore.length;
      while (at > 0 && (bestScore[at - 1] as number) < dot) at--;
      bestScore.splice(at, 0, dot);
      bestIdx.splice(at, 0, row);
      if (bestIdx.length > k) {
        bestIdx.pop();
        bestScore.pop();
      }
    }
  }
  return bestIdx;
}
