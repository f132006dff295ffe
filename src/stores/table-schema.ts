import { InvalidInputError } from "../spec/errors.js";
import type { TableColumn, TableSchema } from "../spec/source.js";
import type { TableWrite } from "../spec/store.js";

/** Column every table gets: `<file>#<primary key value>`, the row's citable id (its row document's id). */
export const ROW_ID_COLUMN = "_id";

/** Column names no store accepts: ferret's `_id` and the names SQLite gives a meaning of its own (the row id). */
export const RESERVED_COLUMNS: ReadonlySet<string> = new Set([ROW_ID_COLUMN, "rowid", "oid", "_rowid_"]);

/** Column types a table source may declare (each store maps them to its own). */
const COLUMN_TYPES: ReadonlySet<string> = new Set(["TEXT", "INTEGER", "REAL"]);

/** The columns queries see: the schema's, then `_id`. */
export function visibleColumns(schema: TableSchema): TableColumn[] {
  return [...schema.columns, { name: ROW_ID_COLUMN, type: "TEXT" }];
}

/**
 * Refuses a table whose name is empty or matches `reservedName` (the database's own prefixes), whose columns
 * have an unknown type or a duplicate (ignoring case), empty or reserved name, or whose primary key is not a column.
 */
export function checkTableWrite(table: TableWrite, reservedName: RegExp): void {
  const { schema } = table;
  const where = `Table ${schema.name} (${table.file})`;
  if (schema.name.trim() === "" || reservedName.test(schema.name)) {
    throw new InvalidInputError(`${where}: "${schema.name}" cannot name a table.`, { file: table.file });
  }
  const names = new Set<string>();
  for (const column of schema.columns) {
    if (!COLUMN_TYPES.has(column.type)) {
      throw new InvalidInputError(`${where}: column ${column.name} has unknown type ${column.type}.`, {
        file: table.file,
        field: column.name,
      });
    }
    // `Name` and `name` count as one column (SQLite identifiers ignore case); both stores refuse them alike.
    const lower = column.name.toLowerCase();
    if (RESERVED_COLUMNS.has(lower) || names.has(lower) || column.name.length === 0) {
      throw new InvalidInputError(`${where} has a duplicate, empty or reserved column name "${column.name}".`, {
        file: table.file,
        field: column.name,
      });
    }
    names.add(lower);
  }
  if (!schema.columns.some((column) => column.name === schema.primaryKey)) {
    throw new InvalidInputError(`${where}: primary key ${schema.primaryKey} is not one of its columns.`, {
      file: table.file,
      field: schema.primaryKey,
    });
  }
}
