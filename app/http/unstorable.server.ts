/**
 * Text PostgreSQL cannot hold (ADR 014, ADR 054): NUL in `text` and `jsonb`, a lone surrogate in `jsonb`. The
 * request readers (readJson, readFormData, readUploadForm) and the host's URL check refuse it wherever it comes in,
 * so no route's own schema has to remember it before a value reaches a query.
 */

// No `u` flag: a lone half is what is looked for, which a `u` regex never sees.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string holds NUL or a lone surrogate. */
export const isUnstorableText = (value: string) => UNSTORABLE.test(value);

/** Deeper than this a JSON body is refused as it is: no route takes one. */
const DEPTH_MAX = 32;

/**
 * Where in a parsed JSON value the first unstorable string (a key or a value) is: the top-level field's name, "" for
 * the value itself or a value nested too deep, or null when there is none.
 */
export function unstorableField(value: unknown): string | null {
  const walk = (item: unknown, depth: number): boolean => {
    if (typeof item === "string") return isUnstorableText(item);
    if (item === null || typeof item !== "object") return false;
    if (depth >= DEPTH_MAX) return true;
    if (Array.isArray(item)) return item.some((entry) => walk(entry, depth + 1));
    return Object.entries(item).some(([key, entry]) => isUnstorableText(key) || walk(entry, depth + 1));
  };
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, entry] of Object.entries(value)) if (isUnstorableText(key) || walk(entry, 1)) return key;
    return null;
  }
  return walk(value, 0) ? "" : null;
}

/** The first form entry (by name) whose name, text or file name is unstorable, or null. */
export function unstorableFormEntry(form: FormData): string | null {
  for (const [name, value] of form.entries()) {
    if (isUnstorableText(name) || isUnstorableText(typeof value === "string" ? value : value.name)) return name;
  }
  return null;
}
