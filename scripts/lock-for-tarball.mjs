// Writes the package-lock.json of an empty project that depends on a ferret tarball: the tarball, plus every
// package of ferret's own lock that ferret needs at run time (its dependencies and theirs, as locked, at the
// same places in node_modules). With it, `npm install --offline` installs from the npm cache alone, without
// asking the registry for package metadata. Usage: node lock-for-tarball.mjs <ferret-dir> <tarball> [extra-dep...]
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const [dir, tarball, ...extra] = process.argv.slice(2);
if (!dir || !tarball) throw new Error("usage: lock-for-tarball.mjs <ferret-dir> <tarball> [extra-dep...]");
const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
const packages = lock.packages;

/** Where node would find `name` when required from the package at `from` (a lock path). */
function locate(name, from) {
  let base = from;
  while (true) {
    const path = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (packages[path]) return path;
    if (!base) return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut < 0 ? "" : base.slice(0, cut);
  }
}

const keep = new Set();
const visit = (name, from, optional) => {
  const path = locate(name, from);
  if (!path) {
    if (optional) return;
    throw new Error(`${name} (needed by ${from || "ferret"}) is not in package-lock.json`);
  }
  if (keep.has(path)) return;
  keep.add(path);
  const entry = packages[path];
  for (const dep of Object.keys(entry.dependencies ?? {})) visit(dep, path, false);
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(dep, path, true);
  for (const [dep, meta] of Object.entries(entry.peerDependencies ?? {}))
    if (!entry.peerDependenciesMeta?.[dep]?.optional) visit(dep, path, true), void meta;
};
for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, "", false);
for (const dep of extra) visit(dep, "", false);

const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
const deps = { ferret: `file:${basename(tarball)}` };
for (const dep of extra) deps[dep] = packages[`node_modules/${dep}`].version;
const out = {
  name: "ferret-pack-check",
  version: "0.0.0",
  lockfileVersion: 3,
  requires: true,
  packages: {
    "": { name: "ferret-pack-check", version: "0.0.0", dependencies: deps },
    "node_modules/ferret": {
      version: manifest.version,
      resolved: `file:${basename(tarball)}`,
      integrity,
      license: manifest.license,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest.peerDependenciesMeta,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  },
};
for (const path of [...keep].sort()) {
  const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = packages[path];
  out.packages[path] = entry;
}
writeFileSync("package.json", `${JSON.stringify({ name: out.name, version: out.version, private: true, type: "module", dependencies: deps }, null, 2)}\n`);
writeFileSync("package-lock.json", `${JSON.stringify(out, null, 2)}\n`);
console.log(`lock: ferret and ${keep.size} packages`);
