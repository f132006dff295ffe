/** The server's API as the UI uses it: the key from session storage on every call, errors as `ApiError`. */

const KEY = "ferret.apiKey";

export const keyStore = {
  get: (): string | null => sessionStorage.getItem(KEY),
  set: (key: string) => sessionStorage.setItem(KEY, key),
  clear: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const authHeaders = (key = keyStore.get()): Record<string, string> =>
  key ? { authorization: `Bearer ${key}` } : {};

async function failure(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = (await response.json()) as { error?: { message?: string } };
    if (body.error?.message) message = body.error.message;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, message);
}

export async function api<T>(path: string, init: RequestInit & { key?: string } = {}): Promise<T> {
  const { key, ...rest } = init;
  const headers: Record<string, string> = { ...authHeaders(key), ...(rest.headers as Record<string, string>) };
  if (typeof rest.body === "string") headers["content-type"] = "application/json";
  const response = await fetch(path, { ...rest, headers });
  if (!response.ok) throw await failure(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export interface Me {
  tenant: string;
  user: string;
  roles: string[];
  keyId?: string;
  canWrite: boolean;
}

export interface Source {
  name: string;
  kind: "documents" | "table" | "jsonl";
  description: string;
  acl: string[];
  documents: number;
  chunks: number;
  /** When an ingest last changed the source's documents (ISO 8601). */
  lastIngestAt?: string;
}

export interface DocumentEntry {
  id: string;
  source: string;
  title: string;
  updatedAt?: string;
}

export interface DocumentView extends DocumentEntry {
  text: string;
  chunks: { id: string; ordinal: number; text: string; section: string[]; start: number; end: number }[];
}

export interface RunSummary {
  runId: string;
  user: string;
  question: string;
  startedAt: string;
  status?: "answered" | "partial" | "refused";
  stopReason?: string;
  costUsd?: number;
  latencyMs?: number;
}

export interface Usage {
  llmCalls: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface Job {
  id: string;
  source: string;
  state: "queued" | "running" | "done" | "failed";
  files: number;
  progress?: { phase: string; done: number; total: number; file?: string };
  summary?: {
    added: number;
    updated: number;
    unchanged: number;
    chunks: number;
    failed: { file: string; reason: string }[];
    skipped: { file: string; reason: string }[];
  };
  error?: { name: string; message: string };
}

export const docHref = (source: string, docId: string, span?: { start: number; end: number } | null) =>
  `#/sources/${encodeURIComponent(source)}/${encodeURIComponent(docId)}${span ? `?start=${span.start}&end=${span.end}` : ""}`;
