import type { Dirent } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";

export interface WalkedFile {
  /** Path relative to the root, with `/` separators: the link's path for a file reached through a link. */
  relPath: string;
  /** The file to read: its real path when reached through a symbolic link. */
  absPath: string;
}

export interface WalkResult {
  /** Sorted by `relPath`. */
  files: WalkedFile[];
  /** Symbolic links and special files left out, with the reason (never read). */
  skipped: { relPath: string; reason: string }[];
}

/** Whether a real path is the root or inside it. */
function inside(rootReal: string, target: string): boolean {
  return target === rootReal || target.startsWith(rootReal.endsWith(sep) ? rootReal : `${rootReal}${sep}`);
}

/** What a directory entry is; file systems that do not report types are asked with lstat. */
async function kindOf(entry: Dirent, abs: string): Promise<"link" | "folder" | "file" | "other"> {
  let info: Pick<Dirent, "isSymbolicLink" | "isDirectory" | "isFile"> = entry;
  if (!entry.isSymbolicLink() && !entry.isDirectory() && !entry.isFile()) info = await lstat(abs);
  return info.isSymbolicLink() ? "link" : info.isDirectory() ? "folder" : info.isFile() ? "file" : "other";
}

const hidden = (entry: Dirent) => entry.name.startsWith(".") || entry.name === "node_modules";

/**
 * Files under a folder. Hidden entries (`.git`, `.DS_Store`) and `node_modules` are left out.
 * Symbolic links are followed once, after the folder's own files are known, and only when their real
 * path is inside the root: a link that leaves the root is skipped with its target named and never read;
 * a link to a file the walk already has is skipped as a duplicate (the file is ingested under its own
 * path); a link to a folder already walked (an ancestor: a loop) is skipped; any other link is
 * followed and its files take the link's path. Every real folder is walked at most once, so it ends.
 */
export async function listFiles(options: { root: string }): Promise<WalkResult> {
  const rootReal = await realpath(options.root);
  const files: WalkedFile[] = [];
  const skipped: WalkResult["skipped"] = [];
  const realFiles = new Map<string, string>();
  const walkedDirs = new Map<string, string>();
  const links: { relPath: string; absPath: string }[] = [];

  async function visit(dirReal: string, prefix: string): Promise<void> {
    walkedDirs.set(dirReal, prefix);
    const entries = await readdir(dirReal, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (hidden(entry)) continue;
      const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      const abs = join(dirReal, entry.name);
      const kind = await kindOf(entry, abs);
      if (kind === "link") links.push({ relPath: rel, absPath: abs });
      else if (kind === "folder") await visit(abs, rel);
      else if (kind === "file") {
        files.push({ relPath: rel, absPath: abs });
        realFiles.set(abs, rel);
      } else skipped.push({ relPath: rel, reason: "not a regular file (a device, pipe or socket)" });
    }
  }

  const display = (target: string) => relative(rootReal, target).split(sep).join("/") || ".";
  await visit(rootReal, "");
  // Links found while following links are appended and handled in turn.
  for (let i = 0; i < links.length; i++) {
    const link = links[i] as { relPath: string; absPath: string };
    const target = await realpath(link.absPath).catch(() => undefined);
    if (target === undefined) {
      skipped.push({ relPath: link.relPath, reason: "broken symbolic link (its target does not exist)" });
      continue;
    }
    if (!inside(rootReal, target)) {
      skipped.push({
        relPath: link.relPath,
        reason: `symbolic link to ${target}, outside the source folder: not read`,
      });
      continue;
    }
    const info = await stat(target);
    if (info.isDirectory()) {
      const walked = walkedDirs.get(target);
      if (walked !== undefined) {
        skipped.push({
          relPath: link.relPath,
          reason: `symbolic link to the folder "${display(target)}", already walked (a loop or a duplicate)`,
        });
        continue;
      }
      await visit(target, link.relPath);
    } else if (info.isFile()) {
      const known = realFiles.get(target);
      if (known !== undefined) {
        skipped.push({
          relPath: link.relPath,
          reason: `symbolic link to "${known}", which is ingested under that path (duplicate)`,
        });
        continue;
      }
      files.push({ relPath: link.relPath, absPath: target });
      realFiles.set(target, link.relPath);
    } else {
      skipped.push({ relPath: link.relPath, reason: "symbolic link to something that is not a file or folder" });
    }
  }
  files.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  return { files, skipped };
}
