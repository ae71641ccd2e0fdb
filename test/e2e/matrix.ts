// Which flows the everyday `npm test` runs, and which only `npm test -- --all` (CI) adds (ADR 067): a flow run at both
// widths runs at the phone's in the everyday run, its desktop run is tagged @matrix; so is a sweep's second pass over
// the same pages (the accessibility sweep at 1280 px, the phone's bar without JavaScript). Every behaviour keeps one run
// in `npm test`; the tag only marks a repeat in another size or mode.

/** The tag of a repeat that only `npm test -- --all` runs (`--grep @matrix` selects them). */
export const MATRIX = "@matrix";

interface Details {
  tag?: string | string[];
  annotation?: { type: string; description?: string } | Array<{ type: string; description?: string }>;
}

/** `details` (a describe's or a test's, e.g. `local(…)`) with the @matrix tag added when `repeat` holds. */
export function matrix(repeat: boolean, details: Details = {}): Details {
  if (!repeat) return details;
  const tags = details.tag === undefined ? [] : Array.isArray(details.tag) ? details.tag : [details.tag];
  return { ...details, tag: [...tags, MATRIX] };
}

/** A flow at the desktop's width is the repeat of its run at the phone's. */
export const atDesktop = (viewport: { width: number }) => viewport.width > 640;
