import { PRODUCT_NAME } from "./constants/site";
import * as text from "./messages/installed-app";
import { pageTitle } from "./meta";

/**
 * The page the service worker shows when a navigation finds no network (ADR 053): one self-contained document, its
 * style and its one script inline, since nothing else may be reachable then. Served at OFFLINE_PAGE_PATH with a policy
 * of its own that allows exactly these two inline blocks by their hashes (server/security.ts `inlineOnlyPolicy`).
 * The colours are app.css's (brand-500/600/700, slate-50/600/900), the font stack its too, the mark public/favicon.svg.
 */
export function offlinePageHtml(): string {
  return `<!DOCTYPE html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#5b3fd6">
<title>${pageTitle(text.offlineTitle)}</title>
<link rel="icon" href="data:image/svg+xml,${encodeURIComponent(MARK)}">
<style>${STYLE}</style>
</head>
<body>
<main aria-labelledby="offline-title">
<p class="brand">${MARK}<span>${PRODUCT_NAME}</span></p>
<h1 id="offline-title">${text.offlineTitle}</h1>
<p>${text.offlineBody}</p>
<button type="button" id="retry">${text.offlineRetry}</button>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** A reload asks the network again (the worker never answers a navigation from its cache but with this page). */
const SCRIPT = `document.getElementById("retry").addEventListener("click",function(){location.reload()});`;

const MARK = `<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" width="40" height="40" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#5b3fd6"/><path d="M18 26h28a8 8 0 0 1 8 8v4a8 8 0 0 1-14 5l-3-3H27l-3 3a8 8 0 0 1-14-5v-4a8 8 0 0 1 8-8z" fill="#fff"/><circle cx="24" cy="34" r="3" fill="#5b3fd6"/><circle cx="42" cy="32" r="2.5" fill="#5b3fd6"/><circle cx="46" cy="36" r="2.5" fill="#5b3fd6"/></svg>`;

const STYLE = [
  "*{box-sizing:border-box}",
  "html{-webkit-text-size-adjust:100%;color-scheme:light}",
  'body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f8fafc;color:#0f172a;font-family:"Hiragino Sans","Hiragino Kaku Gothic ProN","Noto Sans JP",Meiryo,system-ui,sans-serif;line-break:strict;overflow-wrap:anywhere;padding:env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left)}',
  "main{width:100%;max-width:36rem;padding:4rem 1rem;text-align:center}",
  ".brand{display:inline-flex;align-items:center;gap:.5rem;margin:0 0 1.5rem;font-size:1.125rem;font-weight:700;color:oklch(.51 .21 285)}",
  "h1{margin:0 0 .75rem;font-size:1.5rem;font-weight:700}",
  // auto-phrase: Chromium breaks Japanese between phrases rather than inside a word.
  "p{margin:0;color:#475569;line-height:1.7;word-break:auto-phrase}",
  "button{margin-top:2rem;display:inline-flex;min-height:2.75rem;min-width:8rem;align-items:center;justify-content:center;border:0;border-radius:.5rem;padding:0 1rem;background:oklch(.51 .21 285);color:#fff;font:inherit;font-size:.875rem;font-weight:600;cursor:pointer}",
  "button:hover{background:oklch(.44 .19 285)}",
  "button:focus-visible{outline:2px solid oklch(.58 .2 285);outline-offset:2px}",
].join("");
