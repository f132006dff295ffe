/**
 * Listens for a signal's abort without adding one listener per caller. Many runs (or parallel tool calls)
 * often share one signal: a server's shutdown signal, a caller's signal passed to fifty `ask` calls at
 * once. One listener per use would trip Node's `MaxListenersExceededWarning` at eleven, although nothing
 * leaks. Here each signal gets a single listener that fans out to the current subscribers, and that
 * listener is removed when the last subscriber leaves, so nothing stays attached to a long-lived signal.
 */
interface Fanout {
  listeners: Set<() => void>;
  handler: () => void;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/**
 * Calls `listener` once when `signal` aborts (at once, in a microtask, when it already has). Returns the
 * function that unsubscribes; call it when the work is done.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    let cancelled = false;
    queueMicrotask(() => {
      if (!cancelled) listener();
    });
    return () => {
      cancelled = true;
    };
  }
  let fanout = fanouts.get(signal);
  if (fanout === undefined) {
    const listeners = new Set<() => void>();
    const handler = () => {
      fanouts.delete(signal);
      for (const each of [...listeners]) each();
      listeners.clear();
    };
    fanout = { listeners, handler };
    fanouts.set(signal, fanout);
    signal.addEventListener("abort", handler, { once: true });
  }
  const { listeners, handler } = fanout;
  // A subscription of its own, so the same function subscribed twice is two subscriptions.
  const entry = () => listener();
  listeners.add(entry);
  return () => {
    if (!listeners.delete(entry) || listeners.size > 0) return;
    signal.removeEventListener("abort", handler);
    if (fanouts.get(signal)?.handler === handler) fanouts.delete(signal);
  };
}
