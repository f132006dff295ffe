import { createHash } from "node:crypto";

/** JSON with object keys sorted at every level, so equal data always serialises the same way. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return v;
  });
}

/**
 * sha256 (hex) over everything that changes what is stored or who may read it: text (NFC, LF line ends),
 * title, updatedAt, document ACL, metadata and the source's ACL. ACL order does not matter.
 */
export function contentHash(options: {
  text: string;
  title: string;
  updatedAt?: string;
  acl: string[];
  metadata: Record<string, unknown>;
  sourceAcl: string[];
}): string {
  const payload = canonicalJson({
    v: 1,
    text: options.text.normalize("NFC").replace(/\r\n?/g, "\n"),
    title: options.title,
    updatedAt: options.updatedAt ?? null,
    acl: [...options.acl].sort(),
    metadata: options.metadata,
    sourceAcl: [...options.sourceAcl].sort(),
  });
  return createHash("sha256").update(payload).digest("hex");
}
