/** Child process of the kill-mid-change test: ingests a folder one document per transaction, saying "written" after each. */
import { createSqliteStore } from "../../../stores/sqlite/index.js";
import { ingestPath } from "../../ingest.js";

const [db, folder] = process.argv.slice(2);
if (!db || !folder) throw new Error("usage: ingest-child DB FOLDER");
const store = await createSqliteStore({ path: db });
await ingestPath({
  store,
  path: folder,
  source: "notes",
  prune: true,
  workers: 0,
  batchSize: 1,
  onProgress: (e) => {
    if (e.phase === "write") process.stdout.write("written\n");
  },
});
await store.close();
process.stdout.write("finished\n");
