/** The demo accounts' avatars and their posts' pictures, drawn as SVG (rendered by sharp where they are stored). */

export const DEMO_COLOURS = [
  ["#7c3aed", "#22d3ee"],
  ["#f97316", "#facc15"],
  ["#0f172a", "#ef4444"],
] as const;

export const avatarSvg = ([from, to]: readonly [string, string]) => `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="256" height="256" fill="url(#g)"/><circle cx="128" cy="104" r="48" fill="#fff" fill-opacity=".85"/>
  <ellipse cx="128" cy="236" rx="84" ry="64" fill="#fff" fill-opacity=".85"/></svg>`;

/** A game-screen-like picture: a sky, hills, a sun and a few "players" in one colour scheme per scene. */
export const sceneSvg = (scene: number) => {
  const [sky, ground, accent] = DEMO_SCENES[scene % DEMO_SCENES.length]!;
  const players = Array.from({ length: 4 }, (_, i) => `<circle cx="${220 + i * 190}" cy="${470 - (i % 2) * 40}" r="22" fill="${accent}" stroke="#fff" stroke-width="6"/>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675">
  <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs>
  <rect width="1200" height="675" fill="url(#s)"/><circle cx="960" cy="150" r="80" fill="${accent}" fill-opacity=".7"/>
  <path d="M0 520 Q300 380 600 500 T1200 470 V675 H0 Z" fill="${ground}"/>${players}</svg>`;
};
export const DEMO_SCENES = [
  ["#1e3a8a", "#166534", "#f59e0b"],
  ["#7c2d12", "#57534e", "#22d3ee"],
  ["#581c87", "#0f766e", "#f472b6"],
  ["#0c4a6e", "#365314", "#facc15"],
] as const;
