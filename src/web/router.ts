import { useEffect, useState } from "react";

export interface Route {
  /** Path segments after `#/`, decoded. */
  parts: string[];
  query: URLSearchParams;
}

function current(): Route {
  const hash = window.location.hash.replace(/^#\/?/, "");
  const [path = "", search = ""] = hash.split("?", 2);
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** Hash routing: the server serves one page, and every view is `#/...` on it. */
export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    window.addEventListener("hashchange", update);
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return route;
}
