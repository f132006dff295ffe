import { randomUUID } from "node:crypto";
import type { IngestSummary, Principal } from "../index.js";

export interface JobProgress {
  phase: string;
  done: number;
  total: number;
  file?: string;
}

export interface Job {
  id: string;
  tenant: string;
  user: string;
  source: string;
  state: "queued" | "running" | "done" | "failed";
  createdAt: string;
  finishedAt?: string;
  files: number;
  progress?: JobProgress;
  /** When done: what was added, updated, and every failed or skipped file with its reason. */
  summary?: IngestSummary;
  error?: { name: string; message: string };
}

/** Upload jobs in memory: each visible only to the principal that started it; the oldest finished go first. */
export class JobRegistry {
  readonly #jobs = new Map<string, Job>();
  readonly #max: number;

  constructor(options: { max?: number } = {}) {
    this.#max = options.max ?? 1000;
  }

  create(principal: Principal, source: string, files: number): Job {
    const job: Job = {
      id: randomUUID(),
      tenant: principal.tenant,
      user: principal.user,
      source,
      state: "queued",
      createdAt: new Date().toISOString(),
      files,
    };
    this.#jobs.set(job.id, job);
    this.#trim();
    return job;
  }

  get(id: string, principal: Principal): Job | undefined {
    const job = this.#jobs.get(id);
    return job && job.tenant === principal.tenant && job.user === principal.user ? job : undefined;
  }

  /** Jobs not yet finished (for shutdown). */
  running(): Job[] {
    return [...this.#jobs.values()].filter((j) => j.state === "queued" || j.state === "running");
  }

  #trim(): void {
    if (this.#jobs.size <= this.#max) return;
    for (const [id, job] of this.#jobs) {
      if (this.#jobs.size <= this.#max) break;
      if (job.state === "done" || job.state === "failed") this.#jobs.delete(id);
    }
  }
}
