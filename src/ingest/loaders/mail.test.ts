import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFerret } from "../../ferret.js";
import { InvalidInputError } from "../../spec/errors.js";
import { defaultLoaders } from "./index.js";
import { loadEml, loadMbox, mboxStarts } from "./mail.js";

const csv = Buffer.from("bin,litres\nB-4,30\nB-5,45\n").toString("base64");

const message = (n: number, subject: string, body: string, attach = false) =>
  [
    `From: Rook Tallis <rook${n}@example.test>`,
    "To: Wren Oakes <wren@example.test>",
    `Date: Tue, 0${n} Mar 2026 09:30:00 +0000`,
    `Subject: ${subject}`,
    "MIME-Version: 1.0",
    ...(attach
      ? [
          'Content-Type: multipart/mixed; boundary="b1"',
          "",
          "--b1",
          "Content-Type: text/plain; charset=utf-8",
          "",
          body,
          "--b1",
          'Content-Type: text/csv; name="bins.csv"',
          'Content-Disposition: attachment; filename="bins.csv"',
          "Content-Transfer-Encoding: base64",
          "",
          csv,
          "--b1--",
        ]
      : ["Content-Type: text/plain; charset=utf-8", "", body]),
    "",
  ].join("\r\n");

describe("mail loaders", () => {
  it("loads an .eml as one document with headers as metadata, and its attachment through the CSV loader", async () => {
    const bytes = Buffer.from(message(3, "Rain barrel levels", "Barrels are nearly full after the storm.", true));
    const result = await loadEml({ bytes, relPath: "mail/levels.eml", loaders: defaultLoaders });
    const [msg, ...attached] = result.docs;
    expect(msg?.id).toBe("mail/levels.eml#1");
    expect(msg?.title).toBe("Rain barrel levels");
    expect(msg?.metadata).toMatchObject({
      from: '"Rook Tallis" <rook3@example.test>',
      to: '"Wren Oakes" <wren@example.test>',
      date: "2026-03-03T09:30:00.000Z",
      subject: "Rain barrel levels",
      locator: "message 1",
      attachments: ["bins.csv"],
    });
    expect(msg?.text).toContain("Barrels are nearly full after the storm.");
    expect(attached.map((d) => d.id)).toEqual(["mail/levels.eml#1/bins.csv#B-4", "mail/levels.eml#1/bins.csv#B-5"]);
    expect(attached[1]?.text).toContain("litres: 45");
    // The attached CSV is an SQL table too, keyed under its message.
    expect(result.tables?.map((t) => [t.file, t.rows.length])).toEqual([["mail/levels.eml#1/bins.csv", 2]]);
  });

  it("ingests an attached CSV as a queryable table of the mail's source", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ferret-mail-"));
    try {
      writeFileSync(join(dir, "levels.eml"), message(3, "Rain barrel levels", "Barrels are nearly full.", true));
      const ferret = await createFerret({ db: ":memory:" });
      try {
        await ferret.ingest(dir, { source: "mail" });
        const [source] = await ferret.sources();
        expect(source?.tables?.map((t) => t.columns.map((c) => c.name))).toEqual([
          expect.arrayContaining(["bin", "litres"]),
        ]);
      } finally {
        await ferret.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("splits an mbox on From_ lines into one document per message, in order", async () => {
    const box = [
      "From rook1@example.test Sun Mar  1 09:30:00 2026",
      message(1, "Seed order", "Order the runner beans.\r\n>From the catalogue, page four."),
      "From rook2@example.test Mon Mar  2 09:30:00 2026",
      message(2, "Fence repair", "The east fence needs two posts."),
    ].join("\n");
    const bytes = Buffer.from(box);
    expect(mboxStarts(bytes)).toHaveLength(2);
    const result = await loadMbox({ bytes, relPath: "garden.mbox" });
    expect(result.docs.map((d) => [d.id, d.title, d.metadata.locator])).toEqual([
      ["garden.mbox#1", "Seed order", "message 1"],
      ["garden.mbox#2", "Fence repair", "message 2"],
    ]);
    expect(result.docs[1]?.text).toContain("The east fence needs two posts.");
  });

  it("fails a file that is no mbox, naming it", async () => {
    const notMbox = loadMbox({ bytes: Buffer.from("just some words\n"), relPath: "odd.mbox" });
    await expect(notMbox).rejects.toThrow(InvalidInputError);
    await expect(notMbox).rejects.toThrow(/^odd\.mbox: not an mbox file/);
  });
});
