import type { AnswerType } from "./analyze.js";

const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;
const WEEKDAY = /\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b/i;

/** Does this text contain the kind of thing the question asks for? */
export function hasAnswerType(text: string, type: AnswerType): boolean {
  switch (type) {
    case "person":
      return /\b\p{Lu}\p{Ll}+(?:[ -]\p{Lu}[\p{Ll}'’-]+)+\b/u.test(text) || /\p{Script=Han}{2,4}/u.test(text);
    case "date":
      return /\b\d{4}-\d{2}-\d{2}\b|\b(?:1[5-9]|20)\d{2}\b/.test(text) || MONTH.test(text) || WEEKDAY.test(text);
    case "number":
    case "duration":
      return /\d/.test(text);
    default:
      return true;
  }
}
