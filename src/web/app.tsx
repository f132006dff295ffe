import { useEffect, useState } from "react";
import { ApiError, api, keyStore, type Me } from "./api.js";
import { ChatPage } from "./chat/chat-page.js";
import { EvalPage } from "./evals/eval-page.js";
import { useRoute } from "./router.js";
import { RunPage } from "./runs/run-page.js";
import { RunsPage } from "./runs/runs-page.js";
import { SignIn } from "./sign-in.js";
import { DocumentPage } from "./sources/document-page.js";
import { SourcesPage } from "./sources/sources-page.js";

const NAV = [
  ["chat", "Chat"],
  ["sources", "Sources"],
  ["runs", "Runs"],
  ["eval", "Evaluation"],
] as const;

/** The app shell: sign-in until a key is known, then the principal, the navigation and the current view. */
export function App() {
  const [me, setMe] = useState<Me | null>(null);
  const [checking, setChecking] = useState(() => keyStore.get() !== null);
  const route = useRoute();
  useEffect(() => {
    if (!keyStore.get()) return;
    api<Me>("/v1/me")
      .then(setMe)
      .catch((error) => {
        if (error instanceof ApiError && error.status === 401) keyStore.clear();
      })
      .finally(() => setChecking(false));
  }, []);
  if (checking) return <p className="loading">Loading…</p>;
  if (!me) return <SignIn onSignedIn={setMe} />;
  const [view = "chat", ...rest] = route.parts;
  const signOut = () => {
    keyStore.clear();
    setMe(null);
    window.location.hash = "";
  };
  return (
    <div className="shell">
      <header className="top">
        <a className="brand" href="#/chat">
          ferret
        </a>
        <nav aria-label="main">
          {NAV.map(([path, label]) => (
            <a key={path} href={`#/${path}`} aria-current={view === path ? "page" : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span className="principal" data-testid="principal" title={`roles: ${me.roles.join(", ") || "none"}`}>
          {me.user} @ {me.tenant}
          {me.roles.length > 0 && <span className="roles"> · {me.roles.join(", ")}</span>}
        </span>
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main className="view">
        {view === "sources" && rest.length >= 2 ? (
          <DocumentPage source={rest[0]!} docId={rest.slice(1).join("/")} query={route.query} />
        ) : view === "sources" ? (
          <SourcesPage me={me} />
        ) : view === "runs" && rest[0] ? (
          <RunPage runId={rest[0]} />
        ) : view === "runs" ? (
          <RunsPage query={route.query} />
        ) : view === "eval" ? (
          <EvalPage />
        ) : (
          <ChatPage me={me} />
        )}
      </main>
    </div>
  );
}
