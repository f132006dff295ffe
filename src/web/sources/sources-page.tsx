import { type DragEvent, useState } from "react";
import { api, type DocumentEntry, docHref, type Job, type Me, type Source } from "../api.js";
import { useApi } from "../use-api.js";
import { uploadFile } from "./upload.js";

interface FileState {
  name: string;
  sent: number;
  state: "uploading" | "ingesting" | "done" | "failed";
  message?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function finished(jobId: string): Promise<Job> {
  for (;;) {
    const job = await api<Job>(`/v1/jobs/${encodeURIComponent(jobId)}`);
    if (job.state === "done" || job.state === "failed") return job;
    await sleep(250);
  }
}

/** Drag-and-drop upload into a documents source: a progress bar per file, then what ingest made of it. */
function Upload({ sources, onDone }: { sources: Source[]; onDone: () => void }) {
  const writable = sources.filter((s) => s.kind === "documents");
  const [target, setTarget] = useState(writable[0]?.name ?? "uploads");
  const [files, setFiles] = useState<FileState[]>([]);
  const [over, setOver] = useState(false);
  const update = (name: string, patch: Partial<FileState>) =>
    setFiles((list) => list.map((f) => (f.name === name ? { ...f, ...patch } : f)));
  const send = async (chosen: File[]) => {
    setFiles((list) => [
      ...list.filter((f) => !chosen.some((c) => c.name === f.name)),
      ...chosen.map((f) => ({ name: f.name, sent: 0, state: "uploading" as const })),
    ]);
    await Promise.all(
      chosen.map(async (file) => {
        try {
          const { jobId } = await uploadFile(target, file, (sent) => update(file.name, { sent }));
          update(file.name, { sent: 1, state: "ingesting" });
          const job = await finished(jobId);
          const failed = job.summary?.failed.find((f) => f.file.endsWith(file.name));
          const skipped = job.summary?.skipped.find((f) => f.file.endsWith(file.name));
          if (job.state === "failed") update(file.name, { state: "failed", message: job.error?.message });
          else if (failed) update(file.name, { state: "failed", message: failed.reason });
          else if (skipped) update(file.name, { state: "failed", message: `skipped: ${skipped.reason}` });
          else
            update(file.name, {
              state: "done",
              message: `${job.summary?.added ?? 0} added, ${job.summary?.updated ?? 0} updated · ${job.summary?.chunks ?? 0} chunks`,
            });
        } catch (error) {
          update(file.name, { state: "failed", message: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
    onDone();
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void send([...e.dataTransfer.files]);
  };
  return (
    <section className="upload" aria-label="upload">
      <h2>Upload</h2>
      <label>
        Into source{" "}
        <input
          list="source-names"
          value={target}
          pattern="[a-z][a-z0-9_]*"
          onChange={(e) => setTarget(e.target.value)}
        />
        <datalist id="source-names">
          {writable.map((s) => (
            <option key={s.name} value={s.name} />
          ))}
        </datalist>
      </label>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; the file input inside is the keyboard path */}
      <div
        className={`dropzone${over ? " over" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p>Drop files here (Markdown, text, HTML, PDF, DOCX, CSV, JSONL), or</p>
        <input
          type="file"
          multiple
          aria-label="choose files to upload"
          onChange={(e) => {
            if (e.target.files) void send([...e.target.files]);
            e.target.value = "";
          }}
        />
      </div>
      {files.length > 0 && (
        <ul className="uploads" data-testid="uploads">
          {files.map((f) => (
            <li key={f.name} className={`upload-${f.state}`}>
              <span className="file-name">{f.name}</span>
              <progress max={1} value={f.state === "uploading" ? f.sent : 1} aria-label={`${f.name} progress`} />
              <span className="file-state">
                {f.state}
                {f.message && `: ${f.message}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Documents({ source, canWrite }: { source: string; canWrite: boolean }) {
  const { data, error, reload } = useApi<{ documents: DocumentEntry[]; next?: string }>(
    `/v1/sources/${encodeURIComponent(source)}/documents?limit=200`,
  );
  if (error) return <p className="error">{error}</p>;
  if (!data) return <p className="loading">Loading…</p>;
  const remove = async (id: string) => {
    if (!window.confirm(`Remove ${id} from ${source}?`)) return;
    await api(`/v1/sources/${encodeURIComponent(source)}/documents/${encodeURIComponent(id)}`, { method: "DELETE" });
    reload();
  };
  return (
    <ul className="documents" data-testid={`documents-${source}`}>
      {data.documents.map((d) => (
        <li key={d.id}>
          <a href={docHref(source, d.id)}>{d.title || d.id}</a> <span className="small">{d.id}</span>
          {d.updatedAt && <span className="small"> · {d.updatedAt.slice(0, 10)}</span>}
          {canWrite && (
            <button type="button" className="icon" aria-label={`remove ${d.id}`} onClick={() => void remove(d.id)}>
              ×
            </button>
          )}
        </li>
      ))}
      {data.next && <li className="small">… more documents</li>}
    </ul>
  );
}

/** The sources the caller may read: kind, description, counts; documents on demand; uploads for writers. */
export function SourcesPage({ me }: { me: Me }) {
  const { data, error, reload } = useApi<{ sources: Source[] }>("/v1/sources");
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="page" aria-label="sources">
      <h1>Sources</h1>
      {error && <p className="error">{error}</p>}
      {data && data.sources.length === 0 && <p className="empty">No sources you may read.</p>}
      {data && (
        <ul className="sources" data-testid="sources">
          {data.sources.map((s) => (
            <li key={s.name} className="source">
              <div className="source-head">
                <h2>{s.name}</h2>
                <span className="badge">{s.kind}</span>
                <span className="small">
                  {s.documents} documents · {s.chunks} chunks
                  {s.lastIngestAt && (
                    <>
                      {" · last ingest "}
                      <time dateTime={s.lastIngestAt}>{new Date(s.lastIngestAt).toLocaleString()}</time>
                    </>
                  )}
                  {s.acl.length > 0 && ` · roles ${s.acl.join(", ")}`}
                </span>
                <button
                  type="button"
                  className="link"
                  aria-expanded={open === s.name}
                  onClick={() => setOpen(open === s.name ? null : s.name)}
                >
                  {open === s.name ? "Hide documents" : "Documents"}
                </button>
              </div>
              <p>{s.description}</p>
              {open === s.name && <Documents source={s.name} canWrite={me.canWrite} />}
            </li>
          ))}
        </ul>
      )}
      {data && me.canWrite && <Upload sources={data.sources} onDone={reload} />}
      {data && !me.canWrite && <p className="small">Uploading and removing documents needs a write role.</p>}
    </section>
  );
}
