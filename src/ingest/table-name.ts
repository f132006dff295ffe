/**
 * The SQL name of a CSV file's table: its stem in lower_snake_case (`Q3 Sales.csv` -> `q3_sales`). Letters
 * of any script stay (`売上.csv` -> `売上`, a valid SQLite identifier), Latin diacritics go (`Umsätze` ->
 * `umsatze`). A name that would start with a digit or `sqlite_` (reserved by SQLite) gets `t_` in front;
 * an empty one is `table`.
 */
export function tableName(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const snake = stem
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1_$2")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "");
  if (snake === "") return "table";
  return /^\p{L}/u.test(snake) && !snake.startsWith("sqlite_") ? snake : `t_${snake}`;
}
