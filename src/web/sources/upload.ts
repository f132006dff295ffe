import { authHeaders, type Job } from "../api.js";

/** Sends one file as a multipart upload, reporting the bytes sent; resolves with the job the server started. */
export function uploadFile(
  source: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ jobId: string; job: Job }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/v1/sources/${encodeURIComponent(source)}/documents`);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status === 202) resolve(body as { jobId: string; job: Job });
      else reject(new Error((body as { error?: { message?: string } })?.error?.message ?? `HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error("the upload failed (network)"));
    const form = new FormData();
    form.append("files", file, file.name);
    xhr.send(form);
  });
}
