import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { IngestSummary } from "../ingest/ingest.js";
import { AccessDeniedError, InvalidInputError } from "../spec/errors.js";
import { allows, type Principal } from "../spec/principal.js";
import type { StoreV1 } from "../spec/store.js";
import { uploadPath } from "./upload-path.js";

/** One uploaded file: its name (a relative path, which becomes its document id) and its bytes. */
export interface UploadFile {
  name: string;
  data: Uint8Array;
}

export interface UploadOptions {
  store: StoreV1;
  /** Ingests a folder into the source (the library's `ingest`, which also embeds and clears caches). */
  ingest: (
    path: string,
    options: { source: string; tenant: string; description: string; acl: string[]; prune: false },
  ) => Promise<IngestSummary>;
  files: readonly UploadFile[];
  source: string;
  principal: Principal;
  /** For a new source only; an existing source keeps its own description and ACL. */
  description?: string;
  acl?: string[];
}

const NAME = /^[a-z][a-z0-9_]*$/;
/** The path recorded for a source created by an upload. */
export const UPLOADED = "(uploaded)";

/**
 * Adds files to a `documents` source of the principal's tenant through the ordinary ingest, so every
 * decoder cap applies and each file that cannot be read is reported by name while the rest are ingested.
 * An existing source must be readable by the principal and keeps its ACL and description (an upload can
 * never widen who reads a source); a new source is created with the given ones. Nothing is pruned.
 */
export async function uploadFiles(options: UploadOptions): Promise<IngestSummary> {
  const { store, principal, source } = options;
  if (!NAME.test(source))
    throw new InvalidInputError(`source name must be lower_snake_case, got "${source}"`, { field: "source" });
  // Every source of the tenant, readable or not: a name taken by a source the principal cannot read is refused.
  const all = await store.listSources({ tenant: principal.tenant, user: principal.user, roles: ["*"] });
  const existing = all.find((s) => s.name === source);
  if (existing && !allows(principal, existing.acl))
    throw new AccessDeniedError(`cannot upload into source "${source}"`, { source });
  if (existing && existing.kind !== "documents")
    throw new InvalidInputError(`source "${source}" is a ${existing.kind} source; uploads go into documents sources`, {
      field: "source",
    });
  const rejected: IngestSummary["skipped"] = [];
  const accepted: { path: string; data: Uint8Array }[] = [];
  const taken = new Set<string>();
  for (const file of options.files) {
    const checked = uploadPath(file.name);
    if ("reason" in checked) rejected.push({ file: String(file.name).slice(0, 200), reason: checked.reason });
    else if (taken.has(checked.path.toLowerCase()))
      rejected.push({ file: checked.path, reason: "another file of this upload has the same name" });
    else {
      taken.add(checked.path.toLowerCase());
      accepted.push({ path: checked.path, data: file.data });
    }
  }
  const dir = await mkdtemp(join(tmpdir(), "ferret-upload-"));
  try {
    const root = join(dir, "files");
    await mkdir(root);
    for (const file of accepted) {
      const target = join(root, ...file.path.split("/"));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.data, { flag: "wx" });
    }
    const description = existing ? existing.description : (options.description ?? "");
    const acl = existing ? existing.acl : (options.acl ?? []);
    try {
      const summary = await options.ingest(root, { source, tenant: principal.tenant, description, acl, prune: false });
      return { ...summary, skipped: [...rejected, ...summary.skipped] };
    } finally {
      // The ingest recorded the temporary folder as the source's path: put back where it came from.
      await store.putSource({
        name: source,
        tenant: principal.tenant,
        kind: "documents",
        description,
        acl,
        path: existing ? existing.path : UPLOADED,
      });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
