import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * Files under a folder, as `/`-separated paths relative to it, sorted. Hidden entries (`.git`, `.DS_Store`),
 * `node_modules` and symbolic links are left out, so a walk never leaves the folder or loops.
 */
export async function listFiles(options: { root: string }): Promise<string[]> {
  const out: string[] = [];
  async function visit(dir: string, prefix: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await visit(join(dir, entry.name), rel);
      else if (entry.isFile()) out.push(rel);
      else if (!entry.isSymbolicLink()) {
        const info = await lstat(join(dir, entry.name));
        if (info.isFile()) out.push(rel);
      }
    }
  }
  await visit(options.root, "");
  return out.sort();
}
