/** Longest relative path an upload may name, and most folder levels. */
const MAX_PATH_CHARS = 512;
const MAX_SEGMENT_BYTES = 255;
const MAX_DEPTH = 8;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Names that would change how the upload folder is read (an evaluation set), refused at the top level. */
const RESERVED_TOP = new Set(["sources.json"]);

/**
 * The relative path an uploaded file is stored and identified under (its document id), or the reason the
 * name cannot be used. Folders are kept (`guides/setup.md`); `\` counts as `/`; absolute paths, drive
 * letters, `.`/`..` segments, empty segments, control characters, hidden names and over-long names are
 * refused, so nothing is ever written outside the upload's own folder.
 */
export function uploadPath(name: string): { path: string } | { reason: string } {
  if (typeof name !== "string" || name.trim() === "") return { reason: "the file has no name" };
  const path = name.normalize("NFC").replace(/\\/g, "/");
  if (path.length > MAX_PATH_CHARS) return { reason: `the name is longer than ${MAX_PATH_CHARS} characters` };
  if (CONTROL.test(path)) return { reason: "the name contains control characters" };
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return { reason: "the name is an absolute path" };
  const segments = path.split("/");
  if (segments.length > MAX_DEPTH) return { reason: `the name has more than ${MAX_DEPTH} folder levels` };
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..")
      return { reason: "the name has an empty, '.' or '..' segment" };
    if (segment.startsWith(".")) return { reason: "hidden names (starting with '.') are not ingested" };
    if (Buffer.byteLength(segment, "utf8") > MAX_SEGMENT_BYTES)
      return { reason: `a part of the name is longer than ${MAX_SEGMENT_BYTES} bytes` };
  }
  if (segments.length === 1 && RESERVED_TOP.has(path.toLowerCase()))
    return { reason: `${path} at the top of an upload is reserved (it would describe an evaluation set)` };
  return { path };
}
