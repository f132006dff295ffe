/** Byte-level checks shared by the text loaders: binary sniffing and decoding of UTF-8 and legacy encodings. */
import chardet from "chardet";
import iconv from "iconv-lite";

const SNIFF_BYTES = 8192;
/** Bytes handed to the encoding detector: enough for a confident guess, bounded for huge files. */
const DETECT_BYTES = 64 * 1024;
/** Share of control characters above which a file is treated as binary. */
const MAX_CONTROL_SHARE = 0.1;

type Utf16 = "utf-16le" | "utf-16be";

/**
 * UTF-16 by its byte-order mark, or (without one) by the shape of ASCII-range text: in the first
 * bytes, at least 90% of the 16-bit units have a zero high byte and none has a zero low byte.
 */
function utf16Of(bytes: Uint8Array): { encoding: Utf16; bom: boolean } | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe && !(bytes[2] === 0 && bytes[3] === 0))
    return { encoding: "utf-16le", bom: true };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", bom: true };
  const n = Math.min(bytes.length, SNIFF_BYTES) & ~1;
  if (n < 8) return undefined;
  let zeroHighLe = 0;
  let zeroHighBe = 0;
  let zeroLowLe = 0;
  let zeroLowBe = 0;
  for (let i = 0; i < n; i += 2) {
    const a = bytes[i] as number;
    const b = bytes[i + 1] as number;
    if (b === 0) zeroHighLe++;
    if (a === 0) zeroLowLe++;
    if (a === 0) zeroHighBe++;
    if (b === 0) zeroLowBe++;
  }
  const units = n / 2;
  if (zeroHighLe >= units * 0.9 && zeroLowLe === 0) return { encoding: "utf-16le", bom: false };
  if (zeroHighBe >= units * 0.9 && zeroLowBe === 0) return { encoding: "utf-16be", bom: false };
  return undefined;
}

function isControl(code: number): boolean {
  // Tab, LF, VT, FF, CR and ESC occur in text; other C0 controls and DEL do not.
  return (
    (code < 0x20 && code !== 9 && code !== 10 && code !== 11 && code !== 12 && code !== 13 && code !== 27) ||
    code === 0x7f
  );
}

/**
 * Why a file looks binary (a NUL byte, or too many control characters), or undefined for text.
 * UTF-16 text (with a byte-order mark, or ASCII-range text without one) is judged by its characters,
 * not its bytes; multi-byte legacy encodings (Shift_JIS, GBK) have no control bytes and pass.
 */
export function binaryReason(bytes: Uint8Array): string | undefined {
  const utf16 = utf16Of(bytes);
  if (utf16) {
    const units = iconv.decode(
      Buffer.from(bytes.subarray(0, Math.min(bytes.length, SNIFF_BYTES) & ~1)),
      utf16.encoding,
    );
    let control = 0;
    for (let i = 0; i < units.length; i++) if (isControl(units.charCodeAt(i)) || units.charCodeAt(i) === 0) control++;
    if (units.length > 0 && control / units.length > MAX_CONTROL_SHARE)
      return `binary file (${Math.round((control / units.length) * 100)}% control characters)`;
    return undefined;
  }
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) return "binary file (contains NUL bytes)";
    if (isControl(b)) control++;
  }
  if (n > 0 && control / n > MAX_CONTROL_SHARE) {
    return `binary file (${Math.round((control / n) * 100)}% control characters)`;
  }
  return undefined;
}

export interface DecodedText {
  text: string;
  warnings: string[];
  /** The encoding the text was decoded from (`utf-8`, `windows-1252`, `shift_jis`, `gb18030`, ...). */
  encoding: string;
}

export interface DecodeOptions {
  bytes: Uint8Array;
  /** A charset the file declares for itself (an HTML `<meta charset>`): it wins over detection. */
  declaredCharset?: string;
}

/**
 * A charset label as the decoder to use: Latin-1 and ASCII labels mean Windows-1252 (as in browsers,
 * since C1 control characters never occur in real text), GBK and GB2312 mean GB18030 (a superset).
 */
function decoderFor(label: string): string | undefined {
  const name = label.trim().toLowerCase();
  if (/^(iso-?8859-1|latin-?1|l1|us-ascii|ascii|iso_8859-1|cp819|ibm819)$/.test(name)) return "windows-1252";
  if (/^(gbk|gb2312|gb_2312(-80)?|x-gbk|cp936|euc-cn)$/.test(name)) return "gb18030";
  if (/^(shift[-_]?jis|sjis|x-sjis|ms_kanji|windows-31j|cp932)$/.test(name)) return "shift_jis";
  return iconv.encodingExists(name) ? name : undefined;
}

function normalise(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, "\n");
}

function decodeWith(bytes: Uint8Array, encoding: string): string {
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding);
}

/**
 * Whether bytes decode without U+FFFD in an encoding: a candidate that cannot decode the sample is
 * not the file's encoding. A sample cut from a larger file may split a character at either end.
 */
function decodesCleanly(sample: Uint8Array, encoding: string, cut: boolean): boolean {
  const text = decodeWith(sample, encoding);
  const from = cut ? 4 : 0;
  const to = cut ? text.length - 4 : text.length;
  const bad = text.indexOf("\uFFFD", from);
  return bad < 0 || bad >= to;
}

/** Up to DETECT_BYTES from just before the first non-ASCII byte: where the evidence for an encoding is. */
function detectionSample(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= DETECT_BYTES) return bytes;
  let first = 0;
  while (first < bytes.length && (bytes[first] as number) < 0x80) first++;
  const start = Math.max(0, Math.min(first - 1024, bytes.length - DETECT_BYTES));
  return bytes.subarray(start, start + DETECT_BYTES);
}

/**
 * Whether leniently decoded UTF-8 is mostly real UTF-8 with some damage: at least half of the
 * non-ASCII bytes formed valid sequences. Legacy encodings form valid UTF-8 only by accident, so a
 * Latin-1, Windows-1252, Shift_JIS or GBK file falls far below; a UTF-8 file with a few bad bytes stays above.
 */
function mostlyUtf8(lenient: string): boolean {
  let validBytes = 0;
  let invalid = 0;
  for (let i = 0; i < lenient.length; i++) {
    const code = lenient.charCodeAt(i);
    if (code < 0x80) continue;
    if (code === 0xfffd) invalid++;
    else if (code < 0x800) validBytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      validBytes += 4;
      i++;
    } else validBytes += 3;
  }
  return validBytes > 0 && validBytes >= invalid;
}

/** Multi-byte legacy encodings of Chinese, Japanese and Korean. */
const MULTI_BYTE = /^(shift_jis|gb18030|big5|euc-jp|euc-kr|iso-2022)/i;

/** chardet's most confident candidate that decodes the bytes without errors, if any. */
function detect(bytes: Uint8Array): { decoder: string; confidence: number } | undefined {
  const sample = detectionSample(bytes);
  const cut = sample.length < bytes.length;
  for (const match of chardet.analyse(sample)) {
    if (match.name.startsWith("UTF-")) continue;
    const decoder = decoderFor(match.name);
    if (decoder !== undefined && decodesCleanly(sample, decoder, cut)) return { decoder, confidence: match.confidence };
  }
  return undefined;
}

/**
 * Decodes a text file: a byte-order mark decides first (UTF-8, UTF-16), then a charset the file
 * declares, then UTF-8 when the bytes are valid (or mostly valid) UTF-8; otherwise the encoding is
 * detected (chardet: its most confident candidate that decodes the bytes without errors) and decoded
 * (iconv-lite), with a warning naming it. CRLF and CR become LF. When nothing fits, invalid
 * UTF-8 sequences become U+FFFD with a warning rather than failing the file.
 */
export function decodeText(options: DecodeOptions): DecodedText {
  const { bytes } = options;
  const warnings: string[] = [];
  const utf16 = utf16Of(bytes);
  if (utf16) {
    if (!utf16.bom) warnings.push(`no byte-order mark; decoded as ${utf16.encoding} (detected)`);
    return { text: normalise(decodeWith(bytes, utf16.encoding)), warnings, encoding: utf16.encoding };
  }
  const hasUtf8Bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (options.declaredCharset !== undefined && !hasUtf8Bom) {
    const declared = options.declaredCharset.trim().toLowerCase();
    const decoder = decoderFor(declared);
    // A page that declares UTF-16 but is ASCII-compatible means UTF-8 (as browsers read it).
    if (decoder !== undefined && !/^utf-?(8|16)/.test(declared)) {
      return { text: normalise(decodeWith(bytes, decoder)), warnings, encoding: decoder };
    }
    if (decoder === undefined) warnings.push(`declared charset ${JSON.stringify(declared)} is not known; ignored`);
  }
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { text: normalise(text), warnings, encoding: "utf-8" };
  } catch {
    // Not UTF-8: detect below.
  }
  const lenient = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const detected = hasUtf8Bom ? undefined : detect(bytes);
  // A confident multi-byte detection beats damaged UTF-8: Shift_JIS and GBK form valid UTF-8 by accident.
  const choose = detected && ((MULTI_BYTE.test(detected.decoder) && detected.confidence >= 50) || !mostlyUtf8(lenient));
  if (detected && choose) {
    warnings.push(`not valid UTF-8; decoded as ${detected.decoder} (detected, confidence ${detected.confidence}%)`);
    return { text: normalise(decodeWith(bytes, detected.decoder)), warnings, encoding: detected.decoder };
  }
  let bad = 0;
  for (const ch of lenient) if (ch === "\uFFFD") bad++;
  warnings.push(`invalid UTF-8: ${bad} undecodable sequence(s) replaced with U+FFFD`);
  return { text: normalise(lenient), warnings, encoding: "utf-8" };
}
