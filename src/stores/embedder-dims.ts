import type { DocumentWrite } from "../spec/document.js";
import { EmbedderMismatchError } from "../spec/errors.js";

/** The error for vectors whose embedder (or dimension) differs from the one a tenant's vectors came from. */
export function mismatch(options: {
  tenant: string;
  expected: { id?: string; dimensions: number };
  got: { id?: string; dimensions: number };
  where?: string;
}): EmbedderMismatchError {
  const { expected, got } = options;
  const name = (e: { id?: string; dimensions: number }) => `${e.id ?? "an embedder"} (${e.dimensions} dimensions)`;
  return new EmbedderMismatchError(
    `This store holds vectors from ${name(expected)} for tenant "${options.tenant}", but ${options.where ?? "the new vectors come"} from ${name(got)}. ` +
      "Run with the same embedder as before, or re-ingest into a new --db.",
    { tenant: options.tenant, expected, got },
  );
}

/**
 * Refuses, before anything is written, a batch whose vectors disagree with their tenant's dimension
 * (`expected`: what the store holds or its recorded embedder says, undefined when nothing yet) or with each
 * other. Returns every dimension the batch holds.
 */
export function checkBatchDimensions(
  batch: DocumentWrite[],
  expected: (tenant: string) => number | undefined,
): Set<number> {
  const want = new Map<string, number | undefined>();
  const all = new Set<number>();
  for (const { doc, chunks } of batch) {
    if (!want.has(doc.tenant)) want.set(doc.tenant, expected(doc.tenant));
    for (const chunk of chunks) {
      if (!chunk.embedding) continue;
      all.add(chunk.embedding.length);
      const dims = want.get(doc.tenant);
      if (dims === undefined) want.set(doc.tenant, chunk.embedding.length);
      else if (dims !== chunk.embedding.length) {
        throw mismatch({
          tenant: doc.tenant,
          expected: { dimensions: dims },
          got: { dimensions: chunk.embedding.length },
          where: `chunk ${chunk.id} has a vector`,
        });
      }
    }
  }
  return all;
}
