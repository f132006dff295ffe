import { decodeText } from "../decode.js";
import { titleFromPath } from "../fields.js";
import type { Loader } from "../types.js";

/** Plain text: the title is the first line when it is short, else the file name. */
export const loadText: Loader = async ({ bytes, relPath }) => {
  const { text: raw, warnings } = decodeText({ bytes });
  const text = raw.trim();
  const first = text.split("\n", 1)[0]?.trim() ?? "";
  const title = first.length > 0 && first.length <= 120 && text.includes("\n") ? first : titleFromPath(relPath);
  return { docs: [{ id: relPath, title, text, acl: [], metadata: {} }], warnings };
};
