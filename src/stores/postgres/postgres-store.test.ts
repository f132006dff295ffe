import { afterAll } from "vitest";
import { runGraphSuite } from "../graph-suite.js";
import { runStoreSuite } from "../store-suite.js";
import { createPostgresStore } from "./index.js";
import { clusterAvailable, startCluster, startPglite, type TestServer } from "./test-servers.js";

const started: Promise<TestServer>[] = [];
function lazy(start: () => Promise<TestServer>): () => Promise<TestServer> {
  let server: Promise<TestServer> | undefined;
  return () => {
    if (!server) {
      server = start();
      started.push(server);
    }
    return server;
  };
}
const pglite = lazy(startPglite);
const cluster = lazy(startCluster);

afterAll(async () => {
  for (const server of started) await (await server).stop();
});

function opener(server: () => Promise<TestServer>) {
  return async () => {
    const url = await (await server()).database();
    const store = await createPostgresStore({ url, poolSize: 4 });
    return { store, cleanup: async () => {} };
  };
}

runStoreSuite("postgres (PGlite)", opener(pglite), { stopsSql: false });
runGraphSuite("postgres (PGlite)", opener(pglite));
if (clusterAvailable()) {
  runStoreSuite("postgres 15 (cluster)", opener(cluster));
  runGraphSuite("postgres 15 (cluster)", opener(cluster));
}
