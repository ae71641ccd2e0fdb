// `npm run icons`: the app's icons for the web app manifest and iOS's home screen, drawn from public/favicon.svg with
// sharp. The PNGs are committed (public/icons), so the dev server and every build serve them without this step; run it
// again after changing the mark.
import fs from "node:fs";
import sharp from "sharp";

const mark = fs.readFileSync("public/favicon.svg");
const BRAND = "#5b3fd6";

/** The mark alone, as the favicon draws it (its own rounded square). */
const plain = (size) => sharp(mark, { density: (72 * size) / 64 }).resize(size, size).png({ compressionLevel: 9 });

/** Full-bleed brand colour with the mark inside the central 60 %: a launcher may cut any shape out of the safe zone. */
async function maskable(size) {
  const inner = Math.round(size * 0.6);
  const glyph = await plain(inner).toBuffer();
  return sharp({ create: { width: size, height: size, channels: 4, background: BRAND } })
    .composite([{ input: glyph, gravity: "center" }])
    .png({ compressionLevel: 9 });
}

/**
 * A notification's badge (ADR 053): Android draws only its alpha, in one colour, in the status bar. So the mark's
 * controller alone, white on nothing, its buttons cut out; the mark's rounded square would show as a blank tile.
 */
function badge(size) {
  const svg = mark.toString();
  const controller = /<path d="([^"]+)"/.exec(svg)[1];
  const buttons = [...svg.matchAll(/<circle ([^/]*?) fill="[^"]*"\/>/g)].map(([, at]) => `<circle ${at} fill="#000"/>`).join("");
  const cut = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="6 10 52 52"><mask id="buttons"><rect width="64" height="64" fill="#fff"/>${buttons}</mask><path d="${controller}" fill="#fff" mask="url(#buttons)"/></svg>`;
  return sharp(Buffer.from(cut), { density: (72 * size) / 52 }).resize(size, size).png({ compressionLevel: 9 });
}

fs.mkdirSync("public/icons", { recursive: true });
await plain(192).toFile("public/icons/icon-192.png");
await plain(512).toFile("public/icons/icon-512.png");
await (await maskable(512)).toFile("public/icons/icon-maskable-512.png");
// iOS draws its own rounded corners and ignores transparency: the maskable artwork fits it.
await (await maskable(180)).toFile("public/icons/apple-touch-icon.png");
await badge(96).toFile("public/icons/badge-96.png");
console.log("public/icons: icon-192.png, icon-512.png, icon-maskable-512.png, apple-touch-icon.png, badge-96.png");
