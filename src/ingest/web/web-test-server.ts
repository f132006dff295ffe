/** A tiny HTTP server on 127.0.0.1 for the web ingest tests: routes by path, records every request. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Route = (res: ServerResponse, headers: IncomingHttpHeaders) => void;

export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Paths requested, in order. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  routes: Map<string, Route>;
  close(): Promise<void>;
}

export function html(body: string, headers: Record<string, string> = {}): Route {
  return (res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers });
    res.end(body);
  };
}

export async function startTestSite(routes: Record<string, Route> = {}): Promise<TestSite> {
  const site: TestSite = {
    origin: "",
    port: 0,
    requests: [],
    routes: new Map(Object.entries(routes)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    site.requests.push({ path, headers: req.headers });
    const route = site.routes.get(path);
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not here");
      return;
    }
    route(res, req.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site.port = (server.address() as AddressInfo).port;
  site.origin = `http://127.0.0.1:${site.port}`;
  server.keepAliveTimeout = 100;
  return site;
}
