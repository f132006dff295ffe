/**
 * Steering phrases in the languages a knowledge base is written in besides English: German, French,
 * Spanish, Japanese and Chinese. An injected note in a German incident report ("Ignoriere alle
 * vorherigen Anweisungen …") or a Japanese page (「以前の指示を無視して…」) must be caught as surely as
 * "ignore previous instructions".
 *
 * The patterns are tested on the folded detection view (`visible-text.ts`: NFKD without combining marks,
 * no invisible characters), so they are folded the same way when they are built: "übergehe" is written as
 * a reader types it and matches "ubergehe" in the view; a katakana voiced mark is dropped on both sides.
 * Each pattern is a bounded alternation with no nested repetition, so a match is linear in the input.
 */
import { foldForDetection } from "./visible-text.js";

/** A pattern with its letters folded like the detection view (regex syntax is ASCII and stays as it is). */
const folded = (source: string, flags: string) => new RegExp(foldForDetection(source), flags);

/** Phrases that address or steer an AI system, in any case (the `i` flag), on the folded view. */
const SOURCES: string[] = [
  // German: "ignoriere/vergiss/missachte (alle) (vorherigen) Anweisungen", "antworte … nur mit",
  // "schicke deine Zugangsdaten", "du bist jetzt …", "neue Anweisungen:", "Hinweis an alle KI-Assistenten".
  "\\b(?:ignorier|vergiss|vergesst|missacht|übergeh|uebergeh|überschreib|ueberschreib)\\w*\\s+(?:(?:alle|sämtliche|die|deine|ihre|bisherigen|vorherigen|vorigen|obigen|früheren|vorangegangenen)\\s+){0,3}(?:anweisungen|instruktionen|befehle|regeln|vorgaben|systemanweisungen|prompts?)\\b",
  "\\b(?:antworte|antwortet|antworten sie|reagiere)\\b[^.!?\\n]{0,60}\\b(?:nur|ausschließlich|ausschliesslich)\\s+(?:mit|mit dem satz|folgendes)\\b",
  "\\b(?:schick|send|übermittel|gib|nenn)\\w*\\s+(?:(?:deine|ihre|alle|die|uns|mir)\\s+){1,2}(?:zugangsdaten|anmeldedaten|passwörter|passwort|kennwörter|kennwort|api-?schlüssel|tokens?|geheimnisse)\\b",
  "\\bdu bist (?:jetzt|nun|ab sofort)\\b",
  "\\bneue (?:anweisungen?|regeln|instruktionen)\\s*:",
  "\\b(?:hinweis|nachricht|anweisung|anweisungen)\\s+(?:an|für)\\s+(?:alle\\s+|jeden\\s+|jede\\s+|die\\s+|den\\s+)?(?:ki|k\\.i\\.|assistent|assistenten|sprachmodell|sprachmodelle|chatbot|chatbots|ki-assistenten)\\b",
  // French and Spanish: "ignore(z) toutes les instructions précédentes", "réponds uniquement par",
  // "ignora las instrucciones anteriores", "responde solo con".
  "\\b(?:ignore[rz]?|oublie[rz]?)\\s+(?:(?:toutes|tous|les|tes|vos|la|le)\\s+){0,3}(?:instructions|consignes|règles|directives)\\b",
  "\\b(?:réponds|répondez)\\s+(?:uniquement|seulement)\\s+(?:par|avec)\\b",
  "\\b(?:ignora|ignore|olvida|olvide)\\w*\\s+(?:(?:todas|todos|las|los|tus|sus)\\s+){0,3}(?:instrucciones|indicaciones|reglas|órdenes)\\b",
  "\\b(?:responde|responda)\\s+(?:solo|solamente|únicamente)\\s+con\\b",
  // Japanese: 「以前の指示を無視」「指示を無視して」「…とだけ答えて」「パスワードを…送って」「あなたは今…」
  "(?:以前|前|上記|これまで|すべて|全て|今まで)の(?:指示|命令|ルール|プロンプト|質問)を?(?:すべて|全て)?無視",
  "(?:指示|命令|プロンプト)を(?:すべて|全て)?無視し",
  "(?:」|』)\\s*(?:と|で)だけ(?:答え|回答|返答|返信)",
  "(?:とだけ|のみを?)(?:答え|回答|返答|返信)(?:て|な|ろ|よ|しなさい|してください)",
  "(?:パスワード|認証情報|アクセストークン|トークン|APIキー|秘密鍵|クライアントシークレット)を[^。\\n]{0,20}(?:送っ|送信|送れ|教え|転送)",
  "AI(?:アシスタント)?(?:へ|に)(?:の)?(?:注意|指示|メッセージ|お知らせ)",
  // Chinese: 「忽略之前的所有指令」「只回答“…”」「把你的密码发送到…」「你现在是…」「新指令：」
  "(?:忽略|无视|忘记|忽視|無視)(?:之前|以上|上面|先前|前面|所有|全部|此前)?的?(?:所有|全部)?(?:指令|指示|说明|說明|规则|規則|提示)",
  '(?:只|仅|僅)(?:回答|回复|答复|回覆|輸出|输出)\\s*[“"「『:：]',
  "(?:发送|發送|提供|告诉|告訴|交出)[^。\\n]{0,12}(?:密码|密碼|凭证|憑證|令牌|密钥|密鑰|API ?key)",
  "(?:你|您)的?(?:密码|密碼|凭证|憑證|令牌|密钥|密鑰)[^。\\n]{0,12}(?:发送|發送|发给|發給|告诉|告訴|交给|交給)",
  "你现在是|你現在是",
  "新的?(?:指令|指示|规则)\\s*[:：]",
];

export const MULTILINGUAL_PHRASES: readonly RegExp[] = SOURCES.map((s) => folded(s, "i"));

/**
 * A role label in capitals after a sentence's end, inside running text ("… verladen war. SYSTEM: …"):
 * a label opening a line is caught by the line patterns; this one hides in a paragraph. Capitals only,
 * so "the operating system: Linux" is not one.
 */
export const INLINE_ROLE_LABEL = /(?:[.!?。！？]\s*|\s[>|]\s*)(?:SYSTEM|DEVELOPER|ADMIN|ASSISTANT)\s*:/;
