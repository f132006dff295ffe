import { InvalidInputError } from "../../spec/errors.js";
import { decodeText } from "../decode.js";
import { parseAcl, parseDate } from "../fields.js";
import type { LoadedDocument, Loader } from "../types.js";

/** Longest field value written into a line's text; a longer one stays metadata only. */
const MAX_FIELD_CHARS = 200;

/**
 * The line's other scalar fields as `name: value` lines (`site: KIX`, `date: 2026-03-02`), as a table row's
 * text holds its cells: a record's site, date or status is content a question asks about and a next hop
 * follows, not only metadata. Nested values and long strings are left out.
 */
function fieldLines(fields: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") continue;
    const text = String(value).replace(/\s+/g, " ").trim();
    if (text === "" || text.length > MAX_FIELD_CHARS || name.length > MAX_FIELD_CHARS) continue;
    lines.push(`${name}: ${text}`);
  }
  return lines.join("\n");
}

/**
 * The title a line is shown and graded by: its own, led by its key (`NM-22: Trailer moved away from dock`) so
 * that evidence about "NM-22" says it is; the key alone without a title. A key of digits alone (a dump's
 * running index) names nothing and does not lead the title.
 */
function titleWithKey(title: string, key: string): string {
  if (title === "") return key;
  if (/^\d+$/.test(key) || title.includes(key)) return title;
  return `${key}: ${title}`;
}

/**
 * JSON Lines, one `{id, title?, text, updated_at?, acl?, ...}` object per line; the id becomes
 * `<relPath>#<id>` and other fields become metadata, the scalar ones also lines of the text. Blank lines
 * are ignored.
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
      title: titleWithKey(typeof title === "string" ? title.trim() : "", key),
      text: [body.replace(/\r\n?/g, "\n").trim(), fieldLines(rest)].filter(Boolean).join("\n\n"),
      updatedAt,
      acl: parseAcl(acl),
      metadata: rest,
    });
  });
  return { docs, warnings };
};
