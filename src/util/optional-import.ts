import { MissingDependencyError } from "../spec/errors.js";

/** The local model runtime: an optional peer dependency, loaded only when a `local:` model is chosen. */
export const TRANSFORMERS = "@huggingface/transformers";

/**
 * Loads the local model runtime. When the package itself is absent this throws `MissingDependencyError`
 * naming it and the command that installs it; any other failure (a broken native module) is rethrown as is.
 */
export async function importTransformers(feature: string): Promise<typeof import("@huggingface/transformers")> {
  try {
    return await import("@huggingface/transformers");
  } catch (error) {
    if (isMissing(error, TRANSFORMERS)) throw new MissingDependencyError(TRANSFORMERS, feature, error);
    throw error;
  }
}

/** True when `error` says the package `name` itself cannot be found (not one of its own imports). */
export function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  const message = error instanceof Error ? error.message : String(error);
  return message.includes(`'${name}'`) || message.includes(`"${name}"`);
}
