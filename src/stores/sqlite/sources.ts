import type { Principal } from "../../spec/principal.js";
import type { SourceInfo, SourceRecord } from "../../spec/source.js";
import { isOwner } from "../principal.js";
import { type SourceRow, type SourceTables, sourceInfo } from "../source-row.js";
import type { StoreContext } from "./context.js";
import { bumpDataVersion } from "./data-version.js";
import { bumpVectorVersions, deleteChunksOf, lastIngestKey } from "./documents.js";
import { aclAllows } from "./filters.js";
import { dropTables } from "./tables.js";
import { VectorChanges } from "./vectors.js";

/** Registers or updates a source; a new source or a changed one (ACL, description, kind, path) bumps the data version. */
export function putSource(ctx: StoreContext, source: SourceRecord): void {
  ctx.assertWritable("register a source");
  ctx.db
    .transaction(() => {
      const { changes } = ctx
        .stmt(
          `INSERT INTO sources (tenant, name, kind, description, acl, path) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant, name) DO UPDATE SET kind = excluded.kind, description = excluded.description,
             acl = excluded.acl, path = excluded.path
           WHERE kind IS NOT excluded.kind OR description IS NOT excluded.description OR acl IS NOT excluded.acl
             OR path IS NOT excluded.path`,
        )
        .run(
          source.tenant,
          source.name,
          source.kind,
          source.description,
          JSON.stringify(source.acl),
          source.path ?? null,
        );
      if (changes > 0) bumpDataVersion(ctx, source.tenant);
    })
    .immediate();
}

interface SourceRowWithCounts extends SourceRow {
  documents: number;
  chunks: number;
  tables: string | null;
}

/** Sources the principal may read; counts include only the documents (and their chunks) it may read. */
export function listSources(ctx: StoreContext, principal: Principal): SourceInfo[] {
  const owner = isOwner(principal);
  const roles = JSON.stringify(principal.roles);
  const docAcl = owner ? "" : `AND ${aclAllows("d.acl")}`;
  const chunkAcl = owner ? "" : `AND ${aclAllows("c.acl")}`;
  const sourceAcl = owner ? "" : `AND ${aclAllows("s.acl")}`;
  const rows = ctx
    .stmt(
      `SELECT s.tenant, s.name, s.kind, s.description, s.acl, s.path,
         (SELECT json_group_array(json_object('file', t.file, 'schema', json(t.schema)))
            FROM table_sources AS t WHERE t.tenant = s.tenant AND t.source = s.name) AS tables,
         (SELECT count(*) FROM documents AS d WHERE d.tenant = s.tenant AND d.source = s.name ${docAcl}) AS documents,
         (SELECT count(*) FROM chunks AS c WHERE c.tenant = s.tenant AND c.source = s.name ${chunkAcl}) AS chunks
       FROM sources AS s
       WHERE s.tenant = ? ${sourceAcl}
       ORDER BY s.name`,
    )
    .all(...(owner ? [] : [roles, roles]), principal.tenant, ...(owner ? [] : [roles])) as SourceRowWithCounts[];
  return rows.map((row) =>
    sourceInfo(row, {
      lastIngestAt: ctx.getMeta(lastIngestKey(row.tenant, row.name)),
      tables: JSON.parse(row.tables ?? "[]") as SourceTables,
    }),
  );
}

/** Removes a source with its documents, chunks, vectors and table, in one transaction. */
export function removeSource(
  ctx: StoreContext,
  tenant: string,
  name: string,
): { changes: VectorChanges; versions: Map<number, number> } {
  ctx.assertWritable("remove a source");
  const changes = new VectorChanges();
  const versions = ctx.db
    .transaction(() => {
      const docs = ctx.stmt("SELECT id FROM documents WHERE tenant = ? AND source = ?").all(tenant, name) as {
        id: string;
      }[];
      for (const { id } of docs) deleteChunksOf(ctx, { tenant, source: name, docId: id }, changes);
      ctx.stmt("DELETE FROM documents WHERE tenant = ? AND source = ?").run(tenant, name);
      dropTables(ctx, { tenant, source: name });
      ctx.stmt("DELETE FROM sources WHERE tenant = ? AND name = ?").run(tenant, name);
      bumpDataVersion(ctx, tenant);
      return bumpVectorVersions(ctx, changes);
    })
    .immediate();
  return { changes, versions };
}
