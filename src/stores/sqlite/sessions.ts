import type { Principal } from "../../spec/principal.js";
import type { SessionTurn } from "../../spec/store.js";
import type { StoreContext } from "./context.js";

/** Appends turns to a session, keyed by tenant, user and session id. */
export function appendTurns(ctx: StoreContext, sessionId: string, principal: Principal, turns: SessionTurn[]): void {
  ctx.assertWritable("append session turns");
  const { tenant, user } = principal;
  ctx.db
    .transaction(() => {
      const last = ctx
        .stmt("SELECT max(seq) AS seq FROM turns WHERE tenant = ? AND user = ? AND session_id = ?")
        .get(tenant, user, sessionId) as { seq: number | null };
      let seq = last.seq ?? 0;
      const insert = ctx.stmt(
        "INSERT INTO turns (tenant, user, session_id, seq, role, content, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      );
      for (const turn of turns) insert.run(tenant, user, sessionId, ++seq, turn.role, turn.content, turn.at);
    })
    .immediate();
}

export function getTurns(ctx: StoreContext, sessionId: string, principal: Principal): SessionTurn[] {
  return ctx
    .stmt("SELECT role, content, at FROM turns WHERE tenant = ? AND user = ? AND session_id = ? ORDER BY seq")
    .all(principal.tenant, principal.user, sessionId) as SessionTurn[];
}
