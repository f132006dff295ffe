import { OP_WORDS, operator } from "./conditions.js";
import { MEASURE_CONCEPTS, MEASURE_VERBS, UNIT_FACTORS } from "./cues.js";
import { findPhrase } from "./mask.js";
import { loosen, singular } from "./profile.js";
import type { Scan } from "./scan.js";
import { ident } from "./sql-text.js";
import type { ColumnProfile, SqlCondition } from "./types.js";

function nameWords(column: ColumnProfile): string[] {
  return loosen(column.name).split(/\s+/).filter(Boolean);
}

/** The one numeric column whose name says it measures `concept` (`weight_kg` for weight), if exactly one does. */
export function conceptColumn(columns: readonly ColumnProfile[], concept: string): ColumnProfile | undefined {
  const words = MEASURE_CONCEPTS[concept] ?? [];
  const found = columns.filter((c) => c.numeric && nameWords(c).some((w) => words.includes(w)));
  return found.length === 1 ? found[0] : undefined;
}

/** The one numeric column measured in `unit` (`weight_kg` for kg), if exactly one is. */
function unitColumn(columns: readonly ColumnProfile[], unit: string): ColumnProfile | undefined {
  const found = columns.filter((c) => c.numeric && nameWords(c).at(-1) === unit);
  return found.length === 1 ? found[0] : undefined;
}

const NUMBER = "(-?\\d+(?:[.,]\\d+)?)";

/**
 * `heavier than 40 tonnes`, `über 3 Tonnen`: a number with a unit is compared with the column measured in
 * that unit's family, converted to the column's unit (40 tonnes -> 40000 kg). A measuring verb next to it
 * (`weighed`) is accounted for too.
 */
export function unitComparisons(scan: Scan): SqlCondition[] {
  const out: SqlCondition[] = [];
  const units = UNIT_FACTORS.flatMap((u) => u.words.map((word) => ({ ...u, word }))).sort(
    (a, b) => b.word.length - a.word.length,
  );
  const unitWords = units.map((u) => u.word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const re = new RegExp(`(?<![\\p{L}])(${OP_WORDS})\\s*${NUMBER}\\s*(${unitWords})(?![\\p{L}])`, "gu");
  for (const m of scan.loose.matchAll(re)) {
    const from = m.index ?? 0;
    const to = from + m[0].length;
    const unit = units.find((u) => u.word === m[3]);
    const op = operator(m[1]!);
    const column = unit && unitColumn(scan.columns, unit.column);
    if (!unit || !op || !column || !scan.mask.free(from, to)) continue;
    const value = Number(m[2]!.replace(",", ".")) * unit.factor;
    scan.mask.take(from, to);
    out.push({
      sql: `${ident(column.name)} ${op} ${value}`,
      label: `${column.name} ${op} ${value}`,
      at: from,
    });
    for (const [concept, verbs] of Object.entries(MEASURE_VERBS)) {
      if (conceptColumn(scan.columns, concept) !== column) continue;
      for (const verb of verbs) for (const hit of findPhrase(scan.loose, verb)) scan.mask.take(hit.from, hit.to);
    }
  }
  return out;
}

const ABSENT = /(?:\b(?:no|without|not|never|ohne|kein|keine|keinen)\s+(?:a\s+|an\s+|any\s+)?)$/;

/**
 * `delayed shipments`, `with a delay reason`: a free-text column that is often empty, named by the question,
 * means rows where it holds a value (`without a delay reason`: rows where it is empty). Columns already used for
 * grouping or measuring are left alone.
 */
export function presenceConditions(scan: Scan, used: readonly (string | undefined)[]): SqlCondition[] {
  const out: SqlCondition[] = [];
  for (const column of scan.columns) {
    if (column.numeric || column.dateLike || column.boolean || used.includes(column.name)) continue;
    if (!(column.nulls !== undefined && column.nulls > 0)) continue;
    const visible = scan.mask.visible(scan.loose);
    const stem = singular(nameWords(column)[0] ?? "");
    const phrases = [...column.aliases, ...(stem.length >= 4 ? [`${stem}ed`, `${stem}d`] : [])];
    for (const phrase of phrases) {
      for (const hit of findPhrase(visible, phrase)) {
        if (!scan.mask.free(hit.from, hit.to)) continue;
        const absent = ABSENT.exec(scan.loose.slice(Math.max(0, hit.from - 16), hit.from));
        scan.mask.take(absent ? hit.from - absent[0].length : hit.from, hit.to);
        const sql = absent ? scan.dialect.absent(column.name) : scan.dialect.present(column.name);
        if (out.some((c) => c.sql === sql)) continue;
        out.push({ sql, label: `${column.name} ${absent ? "empty" : "present"}`, at: hit.from });
      }
    }
  }
  return out;
}
