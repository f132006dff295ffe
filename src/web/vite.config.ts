import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The web UI: built into dist/web, which `ferret serve` serves at `/` (no CDN, nothing fetched at run time). */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL("../../dist/web", import.meta.url)),
    emptyOutDir: true,
    // The server's CSP allows no inline script: keep every script in a file.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // React, the AI SDK stream reader and zod in one file: about 0.5 MB, served from loopback or a LAN.
    chunkSizeWarningLimit: 1024,
  },
  server: { proxy: { "/v1": "http://127.0.0.1:8787" } },
});
