/**
 * Which of two documents is newer: its `updated_at`, else a version in its title or file name ("SLA v4",
 * "changelog-2.4"), else a date in its title. Used when two documents state different values for the same
 * thing: the newer one wins and the older value is reported as superseded.
 */
export interface Dated {
  docId: string;
  title?: string;
  updatedAt?: string;
}

const VERSION = /(?:^|[^\p{L}\d])v(?:ersion\s?)?(\d+(?:\.\d+)*)(?![\d.]*\d)/iu;
const DATE = /\b((?:19|20)\d{2})(?:-(\d{2})(?:-(\d{2}))?)?\b/;

/** A version as comparable numbers: "v2.4" -> [2, 4]. */
export function versionOf(text: string): number[] | undefined {
  const m = VERSION.exec(text);
  return m ? m[1]!.split(".").map(Number) : undefined;
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** A date as "YYYY-MM-DD" (missing parts as 00): from the text's first year or ISO date. */
function dayOf(text: string | undefined): string | undefined {
  const m = text ? DATE.exec(text) : null;
  return m ? `${m[1]}-${m[2] ?? "00"}-${m[3] ?? "00"}` : undefined;
}

/**
 * > 0 when `a` is newer than `b`, < 0 when older, 0 when nothing tells. Versions in titles (or file names)
 * decide first, since a document edited last is not always the current version; then `updated_at`; then a
 * date in the title.
 */
export function newer(a: Dated, b: Dated): number {
  const va = versionOf(`${a.title ?? ""} ${a.docId}`);
  const vb = versionOf(`${b.title ?? ""} ${b.docId}`);
  if (va && vb && compareVersions(va, vb) !== 0) return compareVersions(va, vb);
  const ua = dayOf(a.updatedAt);
  const ub = dayOf(b.updatedAt);
  if (ua && ub && ua !== ub) return ua < ub ? -1 : 1;
  const ta = dayOf(a.title);
  const tb = dayOf(b.title);
  if (ta && tb && ta !== tb) return ta < tb ? -1 : 1;
  return 0;
}

/** When a document is dated, for saying what was superseded: its version, else its date. */
export function dateLabel(d: Dated): string | undefined {
  const v = versionOf(`${d.title ?? ""} ${d.docId}`);
  if (v) return `v${v.join(".")}`;
  return dayOf(d.updatedAt)?.replace(/-00/g, "") ?? dayOf(d.title)?.replace(/-00/g, "");
}
