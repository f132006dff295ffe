import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { build } from "vite";
import { it } from "vitest";
import { createFerret, type Ferret } from "../../src/index.js";
import { resolveServeConfig } from "../../src/server/config.js";
import { type RunningServer, startServer } from "../../src/server/serve.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Debian's Chromium, or the one FERRET_CHROMIUM names. */
export const CHROMIUM = process.env.FERRET_CHROMIUM ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(
    `test/ui: SKIPPED, no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set FERRET_CHROMIUM.`,
  );

/** A suite title that says why it was skipped when there is no browser. */
export const suiteTitle = (title: string) =>
  hasChromium
    ? title
    : `${title} — SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set FERRET_CHROMIUM)`;

/** Where a failing test leaves its screenshot (and the chat test the README's). */
export const OUTPUT = join(ROOT, "test-output", "ui");

/** A second tenant's knowledge: nothing of it may show to acme, nor acme's to it. */
const GLOBEX_NOTE =
  "# Globex widgets\n\nThe Globex sprocket ships in boxes of 12. Widget returns go to the Springfield depot.\n";

export interface UiServer {
  url: string;
  /** API keys: `acme` (ana, roles eng and writer) and `globex` (gus, role eng). */
  keys: { acme: string; globex: string };
  ferret: Ferret;
  server: RunningServer;
  browser: Browser;
  dir: string;
  close(): Promise<void>;
}

/**
 * The UI built from its sources into a scratch folder, a real `ferret serve` on a loopback port over
 * examples/acme (tenant acme) plus a small second tenant, and Chromium driven by playwright-core.
 */
export async function startUiServer(): Promise<UiServer> {
  const dir = mkdtempSync(join(tmpdir(), "ferret-ui-"));
  const uiDir = join(dir, "web");
  await build({
    configFile: join(ROOT, "src/web/vite.config.ts"),
    logLevel: "error",
    build: { outDir: uiDir, emptyOutDir: true },
  });
  const ferret = await createFerret({ db: join(dir, "ferret.db") });
  await ferret.ingest(join(ROOT, "examples/acme"), { tenant: "acme", workers: 0 });
  const globex = join(dir, "globex");
  mkdirSync(globex);
  writeFileSync(join(globex, "widgets.md"), GLOBEX_NOTE);
  await ferret.ingest(globex, {
    tenant: "globex",
    source: "globex_notes",
    description: "Globex product notes",
    workers: 0,
  });
  const keys = {
    acme: (await ferret.keys.create({ tenant: "acme", user: "ana", roles: ["eng", "writer"] })).key,
    globex: (await ferret.keys.create({ tenant: "globex", user: "gus", roles: ["eng"] })).key,
  };
  const config = resolveServeConfig({ flags: { host: "127.0.0.1", port: 0 } });
  const server = await startServer({ ferret, config, uiDir, logger: pino({ level: "silent" }) });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  return {
    url: server.url,
    keys,
    ferret,
    server,
    browser,
    dir,
    async close() {
      await browser.close();
      await server.close(200);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * A test with its own browser context and page. The page's console errors (a CSP refusal among them) fail it,
 * and a failing test leaves a full-page screenshot in test-output/ui/.
 */
export function pageTest(
  ui: () => UiServer,
  name: string,
  body: (page: Page, context: BrowserContext) => Promise<void>,
  options: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark" } = {},
): void {
  it(name, async () => {
    const context = await ui().browser.newContext({
      baseURL: ui().url,
      viewport: options.viewport ?? { width: 1280, height: 860 },
      colorScheme: options.colorScheme ?? "light",
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    // Nothing is fetched from anywhere but the server itself (no CDN, no fonts, no telemetry).
    page.on("request", (r) => {
      if (!r.url().startsWith(`${ui().url}/`) && !r.url().startsWith("data:")) errors.push(`off-origin ${r.url()}`);
    });
    try {
      await body(page, context);
      const unexpected = errors.filter((e) => !/status of (401|404)/.test(e));
      if (unexpected.length > 0) throw new Error(`the page logged errors:\n${unexpected.join("\n")}`);
    } catch (error) {
      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: join(OUTPUT, `${slug(name)}.png`), fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  });
}

/** Opens the UI and signs in with `key`; resolves when the principal shows. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto("/");
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("principal").waitFor();
}

/** Types a question into the chat and sends it. */
export async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel("Question").fill(question);
  await page.getByLabel("Question").press("Enter");
}
