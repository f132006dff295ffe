import { describe, expect, it } from "vitest";
import { tableName } from "./table-name.js";

describe("tableName", () => {
  it("is the file's stem in lower_snake_case, in any script", () => {
    expect(tableName("data/Q3 Sales.csv")).toBe("q3_sales");
    expect(tableName("SupportTickets.CSV")).toBe("support_tickets");
    expect(tableName("Umsätze-Übersicht.csv")).toBe("umsatze_ubersicht");
    expect(tableName("売上データ.csv")).toBe("売上データ");
    expect(tableName("dir/sub/orders.v2.csv")).toBe("orders_v2");
  });

  it("never starts with a digit or SQLite's reserved prefix, and is never empty", () => {
    expect(tableName("2024 orders.csv")).toBe("t_2024_orders");
    expect(tableName("sqlite_master.csv")).toBe("t_sqlite_master");
    expect(tableName("---.csv")).toBe("table");
  });
});
