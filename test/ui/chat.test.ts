import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { ask, hasChromium, OUTPUT, pageTest, signIn, startUiServer, suiteTitle, type UiServer } from "./harness.js";

const TEAM_LEAD = "Who leads the team that owns the Telemetry Gateway?";

describe.skipIf(!hasChromium)(suiteTitle("web UI: sign-in, chat, citations, refusals, runs (Chromium)"), () => {
  let ui: UiServer;
  beforeAll(async () => {
    ui = await startUiServer();
  });
  afterAll(async () => {
    await ui?.close();
  });

  pageTest(
    () => ui,
    "a wrong key is refused and a right one shows its principal",
    async (page) => {
      await page.goto("/");
      await page.getByLabel("API key").fill("fk_not_a_key");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "not valid" }).waitFor();
      await signIn(page, ui.keys.acme);
      expect(await page.getByTestId("principal").textContent()).toContain("ana @ acme");
      expect(await page.getByTestId("principal").textContent()).toContain("writer");
    },
  );

  pageTest(
    () => ui,
    "steps stream before the answer; the answer cites its passages; a citation card highlights the quote",
    async (page) => {
      await signIn(page, ui.keys.acme);
      // Pause the run before it answers: its steps must already be on the page, the answer not yet.
      await page.getByLabel("ask me at checkpoints").check();
      await ask(page, TEAM_LEAD);
      await page.getByRole("group", { name: "checkpoint" }).waitFor();
      const steps = page.getByTestId("steps").locator("li");
      expect(await steps.filter({ hasText: /searching handbook for '.+' · \d+ passages/ }).count()).toBeGreaterThan(0);
      expect(await page.getByTestId("answer-footer").count()).toBe(0);
      await page.getByRole("form", { name: "ask" }).getByRole("button", { name: "Stop" }).waitFor();
      await page.getByRole("button", { name: "Continue" }).click();

      const answer = page.getByTestId("answer");
      await page.getByTestId("answer-footer").waitFor();
      expect(await answer.textContent()).toContain("Dana Okafor");
      const footer = await page.getByTestId("answer-footer").textContent();
      expect(footer).toMatch(/stop: evidence_sufficient|stop: answered/);
      expect(footer).toMatch(/\d+ steps?.*\d+ tool calls?.*\d+ model calls?.*tokens.*\$[\d.]+.*\d s/);

      // The quotes the server verified, from the run's own record.
      const runs = (await (
        await fetch(`${ui.url}/v1/runs?limit=1`, { headers: { authorization: `Bearer ${ui.keys.acme}` } })
      ).json()) as { runs: { runId: string }[] };
      const run = (await (
        await fetch(`${ui.url}/v1/runs/${runs.runs[0]!.runId}`, {
          headers: { authorization: `Bearer ${ui.keys.acme}` },
        })
      ).json()) as { answer: { citations: { quote: string; docId: string }[] } };
      const quotes = run.answer.citations.map((c) => c.quote.trim());
      expect(quotes.length).toBeGreaterThan(0);

      // Steps open, so the README's screenshot shows them beside the card.
      await page.getByTestId("assistant-message").locator("summary").click();
      const chips = answer.locator("button.chip");
      expect(await chips.count()).toBe(quotes.length);
      await chips.last().focus();
      const card = page.getByRole("dialog", { name: /citation \d+/ });
      await card.waitFor();
      const marked = (await card.locator("mark").textContent())?.trim();
      expect(quotes).toContain(marked);
      expect(await card.textContent()).toContain("quote found in the passage");
      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: join(OUTPUT, "chat-citation.png") });

      // The card's link opens the document with the same span marked.
      await card.getByRole("link", { name: "Open the document here" }).click();
      await page.getByTestId("document-text").waitFor();
      expect((await page.getByTestId("document-text").locator("mark").textContent())?.trim()).toBe(marked);
    },
    { viewport: { width: 1100, height: 900 } },
  );

  pageTest(
    () => ui,
    "an unanswerable question is refused, with what was searched and what was missing",
    async (page) => {
      await signIn(page, ui.keys.acme);
      await ask(page, "What is the CEO's favourite colour?");
      const refusal = page.getByTestId("refusal");
      await refusal.waitFor();
      expect(await refusal.getByRole("heading", { name: "Searched" }).count()).toBe(1);
      expect(await refusal.locator("li").filter({ hasText: "searching handbook" }).count()).toBeGreaterThan(0);
      expect(await refusal.textContent()).toMatch(/Missing:.*colour/);
      await page.getByTestId("answer-footer").waitFor();
      expect(await page.getByTestId("stop-reason").textContent()).toBe("insufficient_evidence");
      expect(await page.getByTestId("answer").count()).toBe(0);
    },
  );

  pageTest(
    () => ui,
    "follow-ups stay in the session, the sidebar lists it, and the run's timeline opens from the list",
    async (page) => {
      await signIn(page, ui.keys.acme);
      await page.getByRole("button", { name: "+ New chat" }).click();
      await ask(page, "What is the maximum frame size accepted by POST /v1/telemetry/frames?");
      await page.getByTestId("answer-footer").waitFor();
      await page.getByRole("navigation", { name: "sessions" }).getByText("What is the maximum frame size").waitFor();
      await ask(page, "How long are they retained?");
      await page.getByTestId("answer-footer").nth(1).waitFor();
      // The follow-up was read against the session: its search carries the first question's subject.
      const followUp = page.getByTestId("assistant-message").nth(1);
      expect(await followUp.getByTestId("steps").textContent()).toMatch(
        /searching handbook for '[^']*telemetry frames/i,
      );

      // A new chat starts empty; the sidebar brings the first one back with both turns.
      await page.getByRole("button", { name: "+ New chat" }).click();
      await page.getByText("Ask a question about your sources.").waitFor();
      await page
        .getByRole("navigation", { name: "sessions" })
        .getByRole("button", { name: /^What is the maximum frame size/ })
        .click();
      await page.getByTestId("assistant-message").nth(1).waitFor();

      await page.getByRole("navigation", { name: "main" }).getByRole("link", { name: "Runs" }).click();
      const row = page.getByTestId("runs").getByRole("link", { name: "How long are they retained?" });
      await row.click();
      await page.getByTestId("timeline").waitFor();
      expect(await page.getByTestId("tool-call").count()).toBeGreaterThan(0);
      expect(await page.getByTestId("timeline").textContent()).toMatch(/grader: (not )?sufficient/);
      expect(await page.locator(".gantt-bar").count()).toBeGreaterThan(0);

      // Filtering the list by status goes through the API's query.
      await page.getByRole("navigation", { name: "main" }).getByRole("link", { name: "Runs" }).click();
      await page.getByLabel("Status").selectOption("answered");
      await page.getByRole("button", { name: "Filter" }).click();
      await page.waitForURL(/status=answered/);
      await page.getByTestId("runs").getByText("What is the maximum frame size").first().waitFor();
      // The follow-up was refused by the offline engine: an answered-only list leaves it out. The first row is in
      // both lists, so wait for the filtered list to replace the old one (this fails if the row never goes).
      await page.getByText("How long are they retained?").waitFor({ state: "detached" });
      expect(await page.getByText("How long are they retained?").count()).toBe(0);
    },
  );
});
