import type { RateLimit } from "../../spec/keys.js";

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by name (a key id): each holds up to `requests` tokens and refills continuously at
 * `requests` per `perMs`. A request takes one token, or is told how long until one is there. Buckets that
 * are full again are dropped when the map grows past `maxBuckets`, so memory stays bounded.
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #now: () => number;
  readonly #maxBuckets: number;

  constructor(options: { now?: () => number; maxBuckets?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxBuckets = options.maxBuckets ?? 100_000;
  }

  /** Takes a token: 0 when granted, else the milliseconds until one is available. */
  take(name: string, rate: RateLimit): number {
    const now = this.#now();
    const perToken = rate.perMs / rate.requests;
    const bucket = this.#buckets.get(name) ?? { tokens: rate.requests, at: now };
    bucket.tokens = Math.min(rate.requests, bucket.tokens + Math.max(0, now - bucket.at) / perToken);
    bucket.at = now;
    if (!this.#buckets.has(name)) {
      if (this.#buckets.size >= this.#maxBuckets) this.#sweep(now, perToken);
      this.#buckets.set(name, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) * perToken);
  }

  /** Forgets buckets that have had time to refill (they would start full anyway). */
  #sweep(now: number, perToken: number): void {
    for (const [name, bucket] of this.#buckets) {
      if (now - bucket.at > perToken * 1000 || bucket.tokens >= 1) this.#buckets.delete(name);
    }
  }

  get size(): number {
    return this.#buckets.size;
  }
}
