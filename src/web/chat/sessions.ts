import type { Me } from "../api.js";
import type { FerretMessage } from "./types.js";

/** A chat session as the sidebar lists it; the server keeps its turns, this browser keeps how they looked. */
export interface SessionEntry {
  id: string;
  title: string;
  updatedAt: string;
}

const listKey = (me: Me) => `ferret.sessions.${me.tenant}:${me.user}`;
const messagesKey = (me: Me, id: string) => `ferret.session.${me.tenant}:${me.user}.${id}`;

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

export const newSessionId = () => crypto.randomUUID();

export function listSessions(me: Me): SessionEntry[] {
  return read<SessionEntry[]>(listKey(me), []);
}

export function loadMessages(me: Me, id: string): FerretMessage[] {
  return read<FerretMessage[]>(messagesKey(me, id), []);
}

/** Saves a session's messages and moves it to the top of the list. */
export function saveSession(me: Me, id: string, messages: FerretMessage[]): SessionEntry[] {
  const first = messages.find((m) => m.role === "user");
  const text = first?.parts.find((p) => p.type === "text");
  const title = text && "text" in text ? text.text.slice(0, 80) : "New chat";
  const list = [
    { id, title, updatedAt: new Date().toISOString() },
    ...listSessions(me).filter((s) => s.id !== id),
  ].slice(0, 50);
  try {
    localStorage.setItem(messagesKey(me, id), JSON.stringify(messages));
    localStorage.setItem(listKey(me), JSON.stringify(list));
  } catch {
    // storage full or disabled: the sidebar just forgets
  }
  return list;
}

export function removeSession(me: Me, id: string): SessionEntry[] {
  const list = listSessions(me).filter((s) => s.id !== id);
  localStorage.removeItem(messagesKey(me, id));
  localStorage.setItem(listKey(me), JSON.stringify(list));
  return list;
}
