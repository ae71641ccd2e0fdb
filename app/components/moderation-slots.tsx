import { lazy, Suspense, type ComponentProps } from "react";

/**
 * ReportLink and HiddenBadge (./moderation-marks) where a page may show them. Only a signed-in member ever sees
 * either (a report link needs someone to report, a hidden item shows to its author alone), so the browser loads
 * their code only when one is rendered: a signed-out visitor's first load does not carry it (README "Page weight").
 *
 * The server has the code from start-up and renders them at once, so the HTML has them without JavaScript. In the
 * browser, a page whose server HTML has one loads the code before hydration (entry.client.tsx waits for
 * `window.gmMarks`), so hydration renders them directly, as the server did, with no Suspense boundary: a boundary
 * still dehydrated when the router's first update reaches it through useLocation would be thrown away and rendered
 * again (React error 421). Only a page that had none and shows one later (after a navigation) waits for the file.
 */
type Marks = typeof import("./moderation-marks");
let marks: Marks | null = null;
const load = () => import("./moderation-marks").then((module) => (marks = module));
/** On the server: settled before the first render (entry.server.tsx waits for it). */
export const marksLoaded = typeof document === "undefined" ? load() : null;
if (typeof document !== "undefined" && document.querySelector("[data-report-type], [data-testid='hidden-badge']")) {
  (window as { gmMarks?: Promise<unknown> }).gmMarks = load();
}

const LazyReportLink = lazy(() => load().then((module) => ({ default: module.ReportLink })));
const LazyHiddenBadge = lazy(() => load().then((module) => ({ default: module.HiddenBadge })));

export function ReportLink(props: ComponentProps<Marks["ReportLink"]>) {
  if (marks) return <marks.ReportLink {...props} />;
  return (
    <Suspense fallback={null}>
      <LazyReportLink {...props} />
    </Suspense>
  );
}

export function HiddenBadge(props: ComponentProps<Marks["HiddenBadge"]>) {
  if (marks) return <marks.HiddenBadge {...props} />;
  return (
    <Suspense fallback={null}>
      <LazyHiddenBadge {...props} />
    </Suspense>
  );
}
