/** Turns texts into vectors. `none` is expressed by having no embedder at all. */
export interface EmbedderV1 {
  readonly specificationVersion: "v1";
  /** `local:Xenova/all-MiniLM-L6-v2`, `openai:text-embedding-3-small`, ... recorded in the store. */
  readonly id: string;
  /** Known once the model has answered (or configured up front). */
  dimensions(): number | undefined;
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}
