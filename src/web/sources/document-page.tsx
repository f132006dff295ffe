import { useEffect, useRef } from "react";
import type { DocumentView } from "../api.js";
import { useApi } from "../use-api.js";

/** A document with its text (the `start`–`end` range from a citation marked and scrolled to) and its chunks. */
export function DocumentPage({ source, docId, query }: { source: string; docId: string; query: URLSearchParams }) {
  const { data, error } = useApi<DocumentView>(
    `/v1/sources/${encodeURIComponent(source)}/documents/${encodeURIComponent(docId)}`,
  );
  const mark = useRef<HTMLElement>(null);
  const start = query.has("start") ? Number(query.get("start")) : undefined;
  const end = query.has("end") ? Number(query.get("end")) : undefined;
  useEffect(() => {
    if (data) mark.current?.scrollIntoView?.({ block: "center" });
  }, [data]);
  if (error) return <p className="error">{error}</p>;
  if (!data) return <p className="loading">Loading…</p>;
  const span = start !== undefined && end !== undefined && start < end && end <= data.text.length;
  return (
    <section className="page" aria-label="document">
      <p>
        <a href="#/sources">← Sources</a>
      </p>
      <h1>{data.title || data.id}</h1>
      <p className="meta">
        <span className="badge">{source}</span> {data.id}
        {data.updatedAt && ` · updated ${data.updatedAt}`} · {data.text.length} characters · {data.chunks.length} chunks
      </p>
      <pre className="doc-text" data-testid="document-text">
        {span ? (
          <>
            {data.text.slice(0, start)}
            <mark ref={mark}>{data.text.slice(start, end)}</mark>
            {data.text.slice(end)}
          </>
        ) : (
          data.text
        )}
      </pre>
      <h2>Chunks</h2>
      <ol className="chunks">
        {data.chunks.map((c) => (
          <li key={c.id}>
            <p className="small">
              #{c.ordinal} · characters {c.start}–{c.end}
              {c.section.length > 0 && ` · ${c.section.join(" › ")}`}
            </p>
            <pre>{c.text}</pre>
          </li>
        ))}
      </ol>
    </section>
  );
}
