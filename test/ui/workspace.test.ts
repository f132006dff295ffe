import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { ask, hasChromium, pageTest, signIn, startUiServer, suiteTitle, type UiServer } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ACME_DOC = "handbook/teams/flight-software.md";
const ACME_QUESTION = "Who leads the team that owns the Telemetry Gateway?";

describe.skipIf(!hasChromium)(
  suiteTitle("web UI: tenants, uploads, stop, eval reports, phone and dark (Chromium)"),
  () => {
    let ui: UiServer;
    let acmeRun: string;
    let report: string;
    beforeAll(async () => {
      ui = await startUiServer();
      const asked = await fetch(`${ui.url}/v1/ask`, {
        method: "POST",
        headers: { authorization: `Bearer ${ui.keys.acme}`, "content-type": "application/json" },
        body: JSON.stringify({ question: ACME_QUESTION }),
      });
      acmeRun = ((await asked.json()) as { runId: string }).runId;
      // An evaluation report as `ferret eval --out` writes it (dist/ is built by the global setup).
      report = join(ui.dir, "eval-report");
      execFileSync(
        process.execPath,
        [join(ROOT, "bin/ferret.js"), "eval", join(ROOT, "examples/acme"), "--limit", "8", "--out", report, "--json"],
        { stdio: "ignore" },
      );
      writeFileSync(
        join(report, "thresholds.json"),
        JSON.stringify({ acme: { answer_correctness: 0.5, citation_precision: 0.99, evidence_recall: 0.1 } }),
      );
    });
    afterAll(async () => {
      await ui?.close();
    });

    pageTest(
      () => ui,
      "a key of another tenant sees none of the first tenant's sources, runs or documents",
      async (page) => {
        await signIn(page, ui.keys.globex);
        expect(await page.getByTestId("principal").textContent()).toContain("gus @ globex");

        await page.goto("/#/sources");
        const sources = page.getByTestId("sources");
        await sources.getByRole("heading", { name: "globex_notes" }).waitFor();
        const listed = await sources.textContent();
        for (const acme of ["handbook", "hr_policies", "support_tickets"]) expect(listed).not.toContain(acme);

        await page.goto("/#/runs");
        await page.getByText("No runs.").waitFor();

        await page.goto(`/#/runs/${encodeURIComponent(acmeRun)}`);
        await page.locator(".error").filter({ hasText: "no run" }).waitFor();
        expect(await page.getByTestId("timeline").count()).toBe(0);

        await page.goto(`/#/sources/handbook/${encodeURIComponent(ACME_DOC)}`);
        await page.locator(".error").filter({ hasText: "no readable document" }).waitFor();

        await page.goto("/#/chat");
        await ask(page, ACME_QUESTION);
        await page.getByTestId("refusal").waitFor();
        expect(await page.getByTestId("assistant-message").textContent()).not.toMatch(/Dana Okafor|handbook/);
      },
    );

    pageTest(
      () => ui,
      "an upload shows each file's outcome (a bad one with its reason), and what it added is searchable",
      async (page) => {
        await signIn(page, ui.keys.acme);
        await page.goto("/#/sources");
        await page.getByTestId("sources").waitFor();
        // Each ingested source says when an ingest last changed it.
        await page.getByTestId("sources").locator("time").first().waitFor();
        expect(await page.getByTestId("sources").textContent()).toContain("last ingest");
        await page.getByLabel("choose files to upload").setInputFiles([
          {
            name: "zephyr-valve.md",
            mimeType: "text/markdown",
            buffer: Buffer.from(
              "# Zephyr valve\n\nThe Zephyr valve is torqued to 42 newton metres before every static fire.\n",
            ),
          },
          { name: "broken.pdf", mimeType: "application/pdf", buffer: Buffer.from("this is not a PDF at all") },
        ]);
        const uploads = page.getByTestId("uploads");
        await uploads.locator("li.upload-done").filter({ hasText: "zephyr-valve.md" }).waitFor();
        const bad = uploads.locator("li.upload-failed").filter({ hasText: "broken.pdf" });
        await bad.waitFor();
        expect(await bad.textContent()).toMatch(/failed: .{5,}/);

        await page.getByRole("button", { name: "Documents" }).first().click();
        await page.getByTestId("documents-handbook").getByRole("link", { name: "Zephyr valve" }).click();
        await page.getByTestId("document-text").waitFor();
        expect(await page.locator(".chunks").textContent()).toMatch(/characters 0–\d+/);

        await page.goto("/#/chat");
        await ask(page, "What torque is the Zephyr valve tightened to?");
        await page.getByTestId("answer-footer").waitFor();
        // The answer cites the uploaded file, and its card shows the passage with the fact.
        await page.getByTestId("answer").locator("button.chip").first().click();
        const card = await page.getByRole("dialog").textContent();
        expect(card).toContain("zephyr-valve.md");
        expect(card).toContain("42 newton metres");

        // Removing it (after the confirm dialog) takes it off the source.
        page.on("dialog", (dialog) => void dialog.accept());
        await page.goto("/#/sources");
        await page.getByRole("button", { name: "Documents" }).first().click();
        const documents = page.getByTestId("documents-handbook");
        await documents.getByRole("button", { name: "remove zephyr-valve.md" }).click();
        await documents.getByRole("link", { name: "Zephyr valve" }).waitFor({ state: "detached" });
        await documents.getByRole("link", { name: "Flight Software Team" }).waitFor();
      },
    );

    pageTest(
      () => ui,
      "the stop button aborts a run: the server records it as aborted",
      async (page) => {
        await signIn(page, ui.keys.acme);
        await page.getByLabel("ask me at checkpoints").check();
        await ask(page, "How much payload mass can the Roadrunner R3 carry?");
        await page.getByRole("group", { name: "checkpoint" }).waitFor();
        await page.getByRole("form", { name: "ask" }).getByRole("button", { name: "Stop" }).click();
        await page.getByRole("form", { name: "ask" }).getByRole("button", { name: "Ask" }).waitFor();
        await page.goto("/#/runs?stopReason=aborted");
        // The run is saved as its stream winds down: reload the list until it shows.
        await expect
          .poll(
            async () => {
              await page.reload();
              await page.getByTestId("runs").or(page.getByText("No runs.")).waitFor();
              return page.getByTestId("runs").getByText("Roadrunner R3 carry").count();
            },
            { timeout: 30_000 },
          )
          .toBe(1);
      },
    );

    pageTest(
      () => ui,
      "an eval report opens from its files, colours metrics by threshold and filters questions",
      async (page) => {
        await signIn(page, ui.keys.acme);
        await page.goto("/#/eval");
        await page
          .locator('input[type="file"]')
          .setInputFiles([
            join(report, "report.json"),
            join(report, "results.jsonl"),
            join(report, "traces.jsonl"),
            join(report, "thresholds.json"),
            join(ROOT, "examples/acme/questions.jsonl"),
          ]);
        const headline = page.getByTestId("headline");
        await headline.waitFor();
        expect(await headline.locator(".metric-pass, .metric-fail").count()).toBeGreaterThanOrEqual(2);
        expect(await page.getByTestId("question-count").textContent()).toBe("8 of 8");
        const lines = readFileSync(join(report, "results.jsonl"), "utf8").trim().split("\n");
        const multiHop = lines.filter((l) => JSON.parse(l).type === "multi_hop").length;
        await page.getByLabel("Type").selectOption("multi_hop");
        expect(await page.getByTestId("question-count").textContent()).toBe(`${multiHop} of 8`);
        expect(await page.getByTestId("questions").locator("li.question").count()).toBe(multiHop);
        // Gold beside ferret's answer, and the question's trace from traces.jsonl as a timeline.
        const first = page.getByTestId("questions").locator("li.question").first();
        expect(await first.getByRole("heading", { name: "Gold" }).count()).toBe(1);
        expect(await first.textContent()).not.toContain("open questions.jsonl");
        await first.getByText("trace", { exact: true }).click();
        expect(await first.getByTestId("tool-call").count()).toBeGreaterThan(0);
      },
    );

    pageTest(
      () => ui,
      "on a phone in dark mode the chat works and a citation card fits the screen",
      async (page) => {
        await signIn(page, ui.keys.acme);
        const background = await page.evaluate("getComputedStyle(document.body).backgroundColor");
        expect(background).toBe("rgb(22, 21, 19)");
        await ask(page, "What is the maximum frame size accepted by POST /v1/telemetry/frames?");
        await page.getByTestId("answer-footer").waitFor();
        await page.getByTestId("answer").locator("button.chip").first().click();
        const box = await page.getByRole("dialog").boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(390);
        // Escape closes the card.
        await page.keyboard.press("Escape");
        expect(await page.getByRole("dialog").count()).toBe(0);
        // From the keyboard: back from the question box past the footer's link to the last chip opens its card.
        await page.getByLabel("Question").focus();
        await page.keyboard.press("Shift+Tab");
        await page.keyboard.press("Shift+Tab");
        await page.getByRole("dialog").waitFor();
        expect(await page.evaluate("document.activeElement.className")).toBe("chip");
      },
      { viewport: { width: 390, height: 844 }, colorScheme: "dark" },
    );
  },
);
