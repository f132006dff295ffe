/** Byte-level checks shared by the text loaders: binary sniffing and lenient UTF-8 decoding. */

const SNIFF_BYTES = 8192;
/** Share of control characters above which a file is treated as binary. */
const MAX_CONTROL_SHARE = 0.1;

/** Why a file looks binary (a NUL byte, or too many control characters), or undefined for text. */
export function binaryReason(bytes: Uint8Array): string | undefined {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) return "binary file (contains NUL bytes)";
    // Tab, LF, VT, FF, CR and ESC occur in text; other C0 controls and DEL do not.
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 27) || b === 0x7f) control++;
  }
  if (n > 0 && control / n > MAX_CONTROL_SHARE) {
    return `binary file (${Math.round((control / n) * 100)}% control characters)`;
  }
  return undefined;
}

export interface DecodedText {
  text: string;
  warnings: string[];
}

/**
 * Decodes UTF-8 (a BOM is dropped, CRLF and CR become LF). Invalid sequences become U+FFFD and add a
 * warning rather than failing the file: one bad byte should not hide the rest of a document.
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  const warnings: string[] = [];
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    let bad = 0;
    for (const ch of text) if (ch === "\uFFFD") bad++;
    warnings.push(`invalid UTF-8: ${bad} undecodable sequence(s) replaced with U+FFFD`);
  }
  return { text: text.replace(/\r\n?/g, "\n"), warnings };
}
