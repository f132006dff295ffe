import { InvalidInputError } from "../spec/errors.js";
import type { Loader } from "./types.js";

/** A loader and what it handles: file extensions (without the dot) and/or media types. */
export interface LoaderRegistration {
  /** Shown in errors and docs (`xlsx`, `my-format`). */
  name: string;
  /** Extensions it loads, without the dot, matched case-insensitively: `["xlsx"]`. */
  extensions?: readonly string[];
  /** Media types it loads (`application/json`), for inputs that come with a type rather than a name. */
  mediaTypes?: readonly string[];
  load: Loader;
  /** Text formats are sniffed for binary content before loading; zip and PDF formats are binary by nature. */
  text: boolean;
  /**
   * Whether a parse worker thread can load it: true for ferret's own loaders (workers import them by
   * module). A loader registered at run time exists only in the process that registered it, so files it
   * loads are parsed in that process.
   */
  builtin?: boolean;
}

/** Loaders by extension and media type; a later registration for the same key replaces the earlier one. */
export interface LoaderRegistry {
  register(loader: LoaderRegistration): void;
  /** The loader for a file name's extension (case-insensitive), or undefined when none is registered. */
  forPath(fileName: string): LoaderRegistration | undefined;
  /** The loader for a media type (parameters such as `; charset=` ignored), or undefined. */
  forMediaType(mediaType: string): LoaderRegistration | undefined;
  /** Every extension with a loader, sorted. */
  extensions(): string[];
  /** A registry holding these registrations, and the ones given (which win). */
  extend(loaders: readonly LoaderRegistration[]): LoaderRegistry;
}

const EXTENSION = /^[a-z0-9][a-z0-9_+-]*$/;
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

function extensionOf(fileName: string): string | undefined {
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 && !base.startsWith(".") ? undefined : base.slice(dot + 1).toLowerCase();
}

function checked(loader: LoaderRegistration): LoaderRegistration {
  const fail = (field: string, message: string) =>
    new InvalidInputError(`loader "${loader.name}", field "${field}": ${message}`, { field });
  if (typeof loader.load !== "function") throw fail("load", "must be a function");
  const extensions = (loader.extensions ?? []).map((e) => e.replace(/^\./, "").toLowerCase());
  const mediaTypes = (loader.mediaTypes ?? []).map((m) => m.toLowerCase());
  for (const e of extensions) if (!EXTENSION.test(e)) throw fail("extensions", `"${e}" is not a file extension`);
  for (const m of mediaTypes) if (!MEDIA_TYPE.test(m)) throw fail("mediaTypes", `"${m}" is not a media type`);
  if (extensions.length === 0 && mediaTypes.length === 0) throw fail("extensions", "name an extension or media type");
  return { ...loader, extensions, mediaTypes };
}

/** A registry holding `loaders` (checked: an extension or media type each, a `load` function). */
export function createLoaderRegistry(loaders: readonly LoaderRegistration[] = []): LoaderRegistry {
  const byExtension = new Map<string, LoaderRegistration>();
  const byMediaType = new Map<string, LoaderRegistration>();
  const all: LoaderRegistration[] = [];
  const registry: LoaderRegistry = {
    register(loader) {
      const entry = checked(loader);
      all.push(entry);
      for (const e of entry.extensions ?? []) byExtension.set(e, entry);
      for (const m of entry.mediaTypes ?? []) byMediaType.set(m, entry);
    },
    forPath(fileName) {
      const ext = extensionOf(fileName);
      return ext === undefined ? undefined : byExtension.get(ext);
    },
    forMediaType(mediaType) {
      return byMediaType.get((mediaType.split(";")[0] ?? "").trim().toLowerCase());
    },
    extensions: () => [...byExtension.keys()].sort(),
    extend: (more) => createLoaderRegistry([...all, ...more]),
  };
  for (const loader of loaders) registry.register(loader);
  return registry;
}
