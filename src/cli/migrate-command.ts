import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { InvalidInputError } from "../spec/errors.js";
import { redactUrl } from "../stores/postgres/db.js";
import { createPostgresStore, isPostgresUrl, type StoreCounts } from "../stores/postgres/index.js";
import { migrateSqliteToPostgres } from "../stores/postgres/migrate.js";
import { print } from "./options.js";

interface MigrateFlags {
  from: string;
  to?: string;
  json?: boolean;
}

/** `ferret migrate --from FILE.db --to postgres://...`: copies a SQLite store into PostgreSQL and checks counts. */
export function migrateCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command("migrate")
    .description("copy a SQLite knowledge base into an empty PostgreSQL database, then compare counts")
    .requiredOption("--from <file>", "the SQLite store to copy")
    .option("--to <url>", "postgres:// URL of the target (env FERRET_DB)")
    .option("--json", "machine-readable output")
    .action(async (flags: MigrateFlags) => {
      const to = flags.to ?? process.env.FERRET_DB;
      if (!to || !isPostgresUrl(to)) {
        throw new InvalidInputError("--to must be a postgres:// URL (or set FERRET_DB to one)", { field: "to" });
      }
      if (!existsSync(flags.from)) {
        throw new InvalidInputError(`no SQLite store at ${resolve(flags.from)}`, { field: "from", file: flags.from });
      }
      const store = await createPostgresStore({
        url: to,
        onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
      });
      try {
        const report = await migrateSqliteToPostgres(flags.from, store, (m) => {
          if (!flags.json) process.stderr.write(`copied ${m}\n`);
        });
        if (report.mismatched.length > 0) setExit(1);
        print({ source: flags.from, target: redactUrl(to), ...report }, flags.json, () => {
          const keys = Object.keys(report.from) as (keyof StoreCounts)[];
          const lines = keys.map(
            (k) =>
              `  ${k.padEnd(10)} ${String(report.from[k]).padStart(8)} ${String(report.to[k]).padStart(8)}${report.mismatched.includes(k) ? "  MISMATCH" : ""}`,
          );
          return [
            `${"".padEnd(12)} ${"sqlite".padStart(8)} ${"postgres".padStart(8)}`,
            ...lines,
            report.mismatched.length === 0 ? "All counts match." : `Counts differ: ${report.mismatched.join(", ")}.`,
          ].join("\n");
        });
      } finally {
        await store.close();
      }
    });
}
