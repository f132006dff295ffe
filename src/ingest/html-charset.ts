/** Bytes searched for a charset declaration: the HTML standard's prescan reads 1,024; pages with long heads get more room. */
const PRESCAN_BYTES = 4096;

/**
 * The charset an HTML page declares in its first bytes, from `<meta charset="...">` or
 * `<meta http-equiv="Content-Type" content="text/html; charset=...">`, or undefined.
 */
export function declaredHtmlCharset(bytes: Uint8Array): string | undefined {
  // Latin-1 maps each byte to one character, so ASCII markup reads the same in any ASCII-compatible encoding.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PRESCAN_BYTES)).toString(
    "latin1",
  );
  for (const meta of head.matchAll(/<meta\b[^>]*>/gi)) {
    const match = /\bcharset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i.exec(meta[0]);
    if (match?.[1]) return match[1].toLowerCase();
  }
  return undefined;
}
