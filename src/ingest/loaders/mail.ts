import type { AddressObject } from "mailparser";
import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import { parseDate } from "../fields.js";
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from "../limits.js";
import type { LoaderRegistry } from "../loader-registry.js";
import type { LoadedDocument, LoadedTable, Loader } from "../types.js";

/** Attachments read per message, at most; more are listed in a warning. */
const MAX_ATTACHMENTS = 20;
/** Mail formats are not opened inside mail: a message attached to a message stays an attachment name. */
const MAIL = new Set(["eml", "mbox"]);

type Mailparser = typeof import("mailparser");
let mailparser: Promise<Mailparser> | undefined;
/** mailparser (and its MIME and HTML stack) is loaded on the first message, not in every parse worker at start. */
const loadMailparser = (): Promise<Mailparser> => {
  mailparser ??= import("mailparser");
  return mailparser;
};

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  a === undefined ? undefined : (Array.isArray(a) ? a : [a]).map((x) => x.text).join(", ");

/**
 * One message as a document `<id>`, with from, to, cc, date and subject as metadata and header lines, and
 * its attachments through the loaders whose type they have (each within the file cap), as documents
 * `<id>/<attachment name>...`.
 */
async function messageDocs(options: {
  raw: Buffer;
  id: string;
  n: number;
  relPath: string;
  limits: IngestLimits;
  loaders?: LoaderRegistry;
  warnings: string[];
}): Promise<{ docs: LoadedDocument[]; tables: LoadedTable[] }> {
  const { raw, id, n, relPath, limits, warnings } = options;
  const { simpleParser } = await loadMailparser();
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    mail = await simpleParser(raw, { skipImageLinks: true, maxHtmlLengthToParse: limits.maxFileBytes });
  } catch (cause) {
    throw new InvalidInputError(
      `${relPath}, message ${n}: not a readable message (${(cause as Error).message})`,
      { file: relPath },
      cause,
    );
  }
  const from = addresses(mail.from);
  const to = addresses(mail.to);
  const cc = addresses(mail.cc);
  const date = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : undefined;
  const subject = mail.subject?.trim() || "(no subject)";
  const header = [
    `From: ${from ?? ""}`,
    `To: ${to ?? ""}`,
    ...(cc ? [`Cc: ${cc}`] : []),
    ...(date ? [`Date: ${date}`] : []),
    `Subject: ${subject}`,
  ];
  const names = mail.attachments.map((a, i) => a.filename ?? `attachment-${i + 1}`);
  const tables: LoadedTable[] = [];
  const docs: LoadedDocument[] = [
    {
      id,
      title: subject,
      text: [header.join("\n"), (mail.text ?? "").trim(), names.length ? `Attachments: ${names.join(", ")}` : ""]
        .filter(Boolean)
        .join("\n\n"),
      updatedAt: parseDate(date),
      acl: [],
      metadata: { from, to, cc, date, subject, message: n, locator: `message ${n}`, attachments: names },
    },
  ];
  if (mail.attachments.length > MAX_ATTACHMENTS)
    warnings.push(`message ${n}: ${mail.attachments.length} attachments; only the first ${MAX_ATTACHMENTS} are read`);
  for (const [i, attachment] of mail.attachments.slice(0, MAX_ATTACHMENTS).entries()) {
    const name = (names[i] as string).replace(/[/\\#]/g, "_");
    const loader = options.loaders?.forPath(name) ?? options.loaders?.forMediaType(attachment.contentType);
    const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
    if (!loader || MAIL.has(ext)) continue;
    if (attachment.size > limits.maxFileBytes) {
      warnings.push(`message ${n}, attachment ${name}: ${attachment.size} bytes, over the maxFileBytes cap; not read`);
      continue;
    }
    try {
      const loaded = await loader.load({
        bytes: attachment.content,
        relPath: `${id}/${name}`,
        limits,
        loaders: options.loaders,
      });
      for (const doc of loaded.docs) docs.push({ ...doc, metadata: { ...doc.metadata, message: n, attachment: name } });
      // An attached CSV or workbook is a table too, keyed under its message like its row documents.
      for (const table of [...(loaded.table ? [loaded.table] : []), ...(loaded.tables ?? [])])
        tables.push({ ...table, file: table.file ?? `${id}/${name}` });
      for (const w of loaded.warnings) warnings.push(`message ${n}, attachment ${name}: ${w}`);
    } catch (cause) {
      if (!(cause instanceof InvalidInputError || cause instanceof LimitExceededError)) throw cause;
      warnings.push(`message ${n}, attachment ${name}: ${cause.message}`);
    }
  }
  return { docs, tables };
}

/** An `.eml` file: one message, `<path>#1` (see `messageDocs`). */
export const loadEml: Loader = async ({ bytes, relPath, limits, loaders }) => {
  const warnings: string[] = [];
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { docs, tables } = await messageDocs({
    raw,
    id: `${relPath}#1`,
    n: 1,
    relPath,
    limits: limits ?? DEFAULT_INGEST_LIMITS,
    loaders,
    warnings,
  });
  return { docs, tables, warnings };
};

/**
 * Byte offsets where each message of an mbox starts: at the file's start and at every `From ` line that
 * follows a line break (mboxrd escapes body lines that begin so). One linear pass.
 */
export function mboxStarts(raw: Buffer): number[] {
  const starts: number[] = [];
  const marker = Buffer.from("\nFrom ");
  if (raw.subarray(0, 5).toString("latin1") === "From ") starts.push(0);
  for (let at = raw.indexOf(marker); at >= 0; at = raw.indexOf(marker, at + 1)) starts.push(at + 1);
  return starts;
}

/** An `.mbox` file: one document per message, `<path>#<n>` (n from 1, in file order), its `From ` line removed. */
export const loadMbox: Loader = async ({ bytes, relPath, limits, loaders }) => {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts = mboxStarts(raw);
  if (starts.length === 0)
    throw new InvalidInputError(`${relPath}: not an mbox file (no line starts with "From ")`, {
      file: relPath,
      line: 1,
    });
  const warnings: string[] = [];
  const docs: LoadedDocument[] = [];
  const tables: LoadedTable[] = [];
  for (const [i, start] of starts.entries()) {
    const end = starts[i + 1] ?? raw.length;
    const lineEnd = raw.indexOf(0x0a, start);
    const body = raw.subarray(lineEnd < 0 || lineEnd > end ? end : lineEnd + 1, end);
    const n = i + 1;
    const message = await messageDocs({
      raw: body,
      id: `${relPath}#${n}`,
      n,
      relPath,
      limits: limits ?? DEFAULT_INGEST_LIMITS,
      loaders,
      warnings,
    });
    docs.push(...message.docs);
    tables.push(...message.tables);
  }
  return { docs, tables, warnings };
};
