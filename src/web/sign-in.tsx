import { type FormEvent, useState } from "react";
import { ApiError, api, keyStore, type Me } from "./api.js";

/** Sign-in with an API key: checked against `/v1/me`, then kept in this tab's session storage only. */
export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const me = await api<Me>("/v1/me", { key: key.trim() });
      keyStore.set(key.trim());
      onSignedIn(me);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? "That key is not valid." : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-label="sign in">
        <h1>ferret</h1>
        <p>
          Sign in with an API key (create one with <code>npx ferret keys create --tenant T --user U</code>).
        </p>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder="fk_…"
          required
        />
        <button type="submit" disabled={busy || key.trim() === ""}>
          Sign in
        </button>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <p className="small">The key stays in this tab only (session storage) and is sent to this server alone.</p>
      </form>
    </main>
  );
}
