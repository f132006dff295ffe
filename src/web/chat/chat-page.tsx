import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { authHeaders, type Me } from "../api.js";
import { AssistantMessage } from "./assistant-message.js";
import { listSessions, loadMessages, newSessionId, removeSession, type SessionEntry, saveSession } from "./sessions.js";
import type { FerretMessage } from "./types.js";

/** The server's error message when the stream's request failed with its JSON error body. */
function errorText(error: Error): string {
  try {
    return (JSON.parse(error.message) as { error?: { message?: string } }).error?.message ?? error.message;
  } catch {
    return error.message;
  }
}

/** One session's conversation: `useChat` over `/v1/ask/stream`, with the session id so follow-ups keep context. */
function ChatPane({ me, sessionId, onSaved }: { me: Me; sessionId: string; onSaved: (list: SessionEntry[]) => void }) {
  const [input, setInput] = useState("");
  const [pause, setPause] = useState(false);
  const pauseRef = useRef(pause);
  pauseRef.current = pause;
  const transport = useMemo(
    () =>
      new DefaultChatTransport<FerretMessage>({
        api: "/v1/ask/stream",
        headers: () => authHeaders(),
        body: () => ({
          sessionId,
          ...(pauseRef.current ? { checkpoints: { onNoResults: true, beforeAnswer: true } } : {}),
        }),
      }),
    [sessionId],
  );
  const [initial] = useState(() => loadMessages(me, sessionId));
  const { messages, sendMessage, status, stop, error } = useChat<FerretMessage>({
    id: sessionId,
    messages: initial,
    transport,
  });
  const busy = status === "submitted" || status === "streaming";
  const end = useRef<HTMLDivElement>(null);
  // Saved once a question of this visit has been answered (opening an old session leaves its place in the list).
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current && status !== "submitted" && status !== "streaming" && messages.length > 0)
      onSaved(saveSession(me, sessionId, messages));
  }, [status, messages, me, sessionId, onSaved]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the conversation whenever a message grows
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [messages]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const question = input.trim();
    if (!question || busy) return;
    setInput("");
    asked.current = true;
    void sendMessage({ text: question });
  };
  return (
    <section className="chat" aria-label="chat">
      <div className="messages">
        {messages.length === 0 && (
          <p className="empty">
            Ask a question about your sources. Every claim in an answer cites the passage it is from.
          </p>
        )}
        {messages.map((m, i) =>
          m.role === "user" ? (
            <article key={m.id} className="msg msg-user" data-testid="user-message">
              {m.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}
            </article>
          ) : (
            <AssistantMessage key={m.id} message={m} live={busy && i === messages.length - 1} />
          ),
        )}
        {error && (
          <p className="error" role="alert">
            {errorText(error)}
          </p>
        )}
        <div ref={end} />
      </div>
      <form className="ask" aria-label="ask" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="question">
          Question
        </label>
        <textarea
          id="question"
          rows={2}
          value={input}
          placeholder="Ask a question (Enter sends, Shift+Enter for a new line)"
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) submit(e);
          }}
        />
        <div className="ask-actions">
          <label className="small">
            <input type="checkbox" checked={pause} onChange={(e) => setPause(e.target.checked)} /> ask me at checkpoints
          </label>
          {busy ? (
            <button type="button" className="danger" onClick={() => void stop()}>
              Stop
            </button>
          ) : (
            <button type="submit" disabled={input.trim() === ""}>
              Ask
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

/** The chat view: sessions in a sidebar (this browser's, per principal), the open one beside it. */
export function ChatPage({ me }: { me: Me }) {
  const [sessions, setSessions] = useState(() => listSessions(me));
  const [current, setCurrent] = useState(() => sessions[0]?.id ?? newSessionId());
  return (
    <div className="chat-layout">
      <nav className="sessions" aria-label="sessions">
        <button type="button" onClick={() => setCurrent(newSessionId())}>
          + New chat
        </button>
        <ul>
          {sessions.map((s) => (
            <li key={s.id} className={s.id === current ? "current" : ""}>
              <button
                type="button"
                className="link"
                aria-current={s.id === current ? "true" : undefined}
                onClick={() => setCurrent(s.id)}
                title={s.title}
              >
                {s.title}
              </button>
              <button
                type="button"
                className="icon"
                aria-label={`forget session ${s.title}`}
                onClick={() => {
                  setSessions(removeSession(me, s.id));
                  if (s.id === current) setCurrent(newSessionId());
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <ChatPane key={current} me={me} sessionId={current} onSaved={setSessions} />
    </div>
  );
}
