import type Database from "better-sqlite3";
import { StoreError } from "../../spec/errors.js";

/** What every part of the adapter shares: the connection, a prepared-statement cache and the meta table. */
export class StoreContext {
  readonly db: Database.Database;
  readonly path: string;
  readonly readonly: boolean;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(options: { db: Database.Database; path: string; readonly: boolean }) {
    this.db = options.db;
    this.path = options.path;
    this.readonly = options.readonly;
  }

  /** A prepared statement for `sql`, prepared once and reused. */
  stmt(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  getMeta(key: string): string | undefined {
    const row = this.stmt("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      key,
      value,
    );
  }

  /** Increments an integer counter in meta and returns its new value. */
  bump(key: string): number {
    const next = Number(this.getMeta(key) ?? "0") + 1;
    this.setMeta(key, String(next));
    return next;
  }

  assertWritable(operation: string): void {
    if (this.readonly) {
      throw new StoreError(`Cannot ${operation}: the store at ${this.path} was opened read-only.`, undefined, {
        path: this.path,
      });
    }
  }
}

/** Float32Array <-> BLOB without copying on the way in. */
export function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function blobVector(blob: Buffer): Float32Array {
  const copy = new ArrayBuffer(blob.byteLength);
  new Uint8Array(copy).set(blob);
  return new Float32Array(copy);
}
