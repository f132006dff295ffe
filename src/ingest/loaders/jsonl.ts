import { InvalidInputError } from "../../spec/errors.js";
import { decodeText } from "../decode.js";
import { parseAcl, parseDate } from "../fields.js";
import type { LoadedDocument, Loader } from "../types.js";

/**
 * JSON Lines, one `{id, title?, text, updated_at?, acl?, ...}` object per line; the id becomes
 * `<relPath>#<id>` and other fields become metadata. Blank lines are ignored.
 */
export const loadJsonl: Loader = async ({ bytes, relPath }) => {
  const { text, warnings } = decodeText({ bytes });
  const docs: LoadedDocument[] = [];
  const seen = new Map<string, number>();
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    const fail = (message: string, field?: string, cause?: unknown) =>
      new InvalidInputError(
        `${relPath}, line ${line}${field ? `, field "${field}"` : ""}: ${message}`,
        { file: relPath, line, field },
        cause,
      );
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      throw fail(`invalid JSON: ${(cause as Error).message}`, undefined, cause);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw fail("expected a JSON object");
    const { id, title, text: body, updated_at: updated, acl, ...rest } = value as Record<string, unknown>;
    if ((typeof id !== "string" && typeof id !== "number") || String(id).trim() === "") {
      throw fail("missing or empty id (a string or number)", "id");
    }
    if (typeof body !== "string") throw fail("missing text (a string)", "text");
    if (title !== undefined && title !== null && typeof title !== "string")
      throw fail("title must be a string", "title");
    const key = String(id).trim();
    const earlier = seen.get(key);
    if (earlier !== undefined) throw fail(`duplicate id "${key}" (first on line ${earlier})`, "id");
    seen.set(key, line);
    const updatedAt = parseDate(updated);
    if (updated !== undefined && updated !== null && updatedAt === undefined) {
      warnings.push(`line ${line}: updated_at ${JSON.stringify(updated)} is not a date; ignored`);
    }
    docs.push({
      id: `${relPath}#${key}`,
      title: (typeof title === "string" && title.trim()) || key,
      text: body.replace(/\r\n?/g, "\n").trim(),
      updatedAt,
      acl: parseAcl(acl),
      metadata: rest,
    });
  });
  return { docs, warnings };
};
