import { useEffect, useRef } from "react";

/**
 * While mounted, `--viewport-height` on <html> follows the visual viewport: the part of the screen the on-screen
 * keyboard leaves (a phone's browser shrinks the visual viewport, not the layout, when the keyboard opens). The chat
 * screen sizes itself by it (.chat-screen in app.css), so the composer stays above the keyboard. `onResize` runs after
 * each change. Zoomed in, the visual viewport is a magnified part of the page, not a smaller screen: the layout stays.
 */
export function useVisualViewportHeight(onResize?: () => void) {
  const latest = useRef(onResize);
  latest.current = onResize;
  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const root = document.documentElement;
    const fit = () => {
      if (viewport.scale > 1.01) root.style.removeProperty("--viewport-height");
      else root.style.setProperty("--viewport-height", `${viewport.height}px`);
      latest.current?.();
    };
    fit();
    viewport.addEventListener("resize", fit);
    return () => {
      viewport.removeEventListener("resize", fit);
      root.style.removeProperty("--viewport-height");
    };
  }, []);
}
