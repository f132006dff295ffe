import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IngestSummary } from "../../src/index.js";
import { hostileUpload } from "../fixtures/hostile/uploads.js";
import { auth, postJson, startTestServer, type TestServer } from "./harness.js";

interface JobBody {
  id: string;
  state: "queued" | "running" | "done" | "failed";
  files: number;
  summary?: IngestSummary;
  error?: { name: string; message: string };
}

async function finished(t: TestServer, key: string, jobId: string): Promise<JobBody> {
  for (;;) {
    const res = await fetch(`${t.url}/v1/jobs/${jobId}`, { headers: auth(key) });
    expect(res.status).toBe(200);
    const job = (await res.json()) as JobBody;
    if (job.state === "done" || job.state === "failed") return job;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("multipart uploads", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it("an upload with bad files reports each of them by name and ingests the rest", async () => {
    const key = t.keys["acme-hr"]!;
    const { files, expected } = hostileUpload();
    const form = new FormData();
    for (const file of files) form.append("files", new Blob([file.data]), file.name);
    form.append("acl", "hr");
    const res = await fetch(`${t.url}/v1/sources/uploads/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const job = await finished(t, key, jobId);
    expect(job.state).toBe("done");
    expect(job.files).toBe(files.length);
    expect(job.summary?.added).toBe(expected.added.length);
    expect(job.summary?.failed.map((f) => f.file)).toEqual(expected.failed);
    expect(job.summary?.failed[0]?.reason).toBeTruthy();
    expect(job.summary?.skipped.map((f) => f.file)).toEqual(expected.skipped);

    const listed = (await (await fetch(`${t.url}/v1/sources/uploads/documents`, { headers: auth(key) })).json()) as {
      documents: { id: string }[];
    };
    expect(listed.documents.map((d) => d.id)).toEqual(expected.added);
    for (const [query, docId] of [
      ["Druckprüfung Tanks", "de/prüfung.md"],
      ["发射前检查", "zh/发射.md"],
      ["Zephyr launch window", "launch-window.md"],
    ] as const) {
      const hits = (await (await postJson(`${t.url}/v1/search`, key, { query, sources: ["uploads"] })).json()) as {
        passages: { docId: string }[];
      };
      expect(hits.passages[0]?.docId, query).toBe(docId);
    }
    // The new source carries the upload's ACL: a key without the role does not see it.
    const eng = (await (await fetch(`${t.url}/v1/sources`, { headers: auth(t.keys["acme-eng"]!) })).json()) as {
      sources: { name: string }[];
    };
    expect(eng.sources.map((s) => s.name)).not.toContain("uploads");
  });

  it("a key without a write role cannot upload", async () => {
    const form = new FormData();
    form.append("files", new Blob(["# Note\n\nhello\n"]), "note.md");
    const res = await fetch(`${t.url}/v1/sources/public_docs/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.keys["acme-eng"]}` },
      body: form,
    });
    expect(res.status).toBe(403);
  });
});
