#!/usr/bin/env bash
# Packs ferret, installs the tarball into an empty project offline (from the npm cache, no model runtime),
# imports createFerret, ingests a file and asks a question; prints the installed size.
# Usage: scripts/pack-install-check.sh [--with-model-runtime]   (the flag also installs @huggingface/transformers)
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d "${TMPDIR:-/tmp}/ferret-pack-XXXXXX")"
trap 'rm -rf "$work"' EXIT

npm pack --silent --pack-destination "$work" >"$work/pack.txt"
tarball="$work/$(tail -n 1 "$work/pack.txt")"
tar -tzf "$tarball" >"$work/files.txt"
echo "== packed $(basename "$tarball"): $(du -h "$tarball" | cut -f1), $(wc -l <"$work/files.txt") files"
if grep -E '\.test\.|__fixtures__|/(agent|tools)/testing/|test-servers|\.map$' "$work/files.txt"; then
  echo "FAIL: test code or source maps in the package" >&2
  exit 1
fi

if ! grep -qx 'package/dist/testing/index.js' "$work/files.txt"; then
  echo "FAIL: the ferret/testing entry (dist/testing/index.js) is missing from the package" >&2
  exit 1
fi

root="$PWD"
app="$work/app"
mkdir -p "$app"
cd "$app"
extra=()
if [ "${1:-}" = "--with-model-runtime" ]; then extra=("@huggingface/transformers"); fi
cp "$tarball" .
# The registry is never asked: the lock (derived from ferret's own) names every tarball, the cache holds them.
node "$root/scripts/lock-for-tarball.mjs" "$root" "$(basename "$tarball")" "${extra[@]}"
npm install --offline --no-audit --no-fund --loglevel=error

if [ -d node_modules/onnxruntime-node ] && [ ${#extra[@]} -eq 0 ]; then
  echo "FAIL: onnxruntime-node was installed without the optional model runtime" >&2
  exit 1
fi
for optional in pdfjs-dist usearch exceljs; do
  if [ -d "node_modules/$optional" ]; then
    echo "FAIL: the optional peer dependency $optional was installed" >&2
    exit 1
  fi
done

mkdir docs
printf '# Refunds\n\nRefund requests time out after 30 seconds at the gateway.\n' >docs/refunds.md
printf '# 休暇\n\n年次休暇は毎年二十日です。\n' >docs/kyuka.md
cat >check.mjs <<'JS'
import { createFerret } from "ferret";
const ferret = await createFerret({ db: ":memory:" });
await ferret.ingest("docs", { source: "docs" });
const answer = await ferret.ask("How long until a refund request times out?");
if (answer.status !== "answered" || !answer.text.includes("30 seconds") || answer.citations.length === 0) {
  console.error("FAIL: unexpected answer", JSON.stringify(answer, null, 2));
  process.exit(1);
}
let missing;
try {
  await createFerret({ db: ":memory:", embedder: "local:Xenova/all-MiniLM-L6-v2" });
} catch (error) {
  missing = error;
}
const runtime = await import("@huggingface/transformers").then(() => true, () => false);
if (!runtime && missing?.name !== "MissingDependencyError") {
  console.error("FAIL: a local embedder without the runtime should say what to install; got", missing);
  process.exit(1);
}
console.log(`answer: ${answer.text} (${answer.citations.length} citation(s), model ${answer.model})`);
if (missing) console.log(`local embedder without the runtime: ${missing.message}`);
await ferret.close();
JS
node check.mjs
echo "== installed size: $(du -sm node_modules | cut -f1) MB (node_modules of an empty project with ferret${extra:+ and ${extra[*]}})"
echo "== largest packages (MB):"
# sed reads all of sort's output (head would stop early, and under pipefail sort's SIGPIPE fails the run).
du -sm node_modules/* node_modules/@*/* 2>/dev/null | grep -v 'node_modules/@[^/]*$' | sort -rn | sed -n '1,8p'
