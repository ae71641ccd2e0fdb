import type { GameSummary } from "~/models/game.server";

// Whole class names, so Tailwind finds them: the CSP allows no inline styles (server/security.ts).
const GRADIENTS = [
  "from-violet-700 to-cyan-400",
  "from-rose-600 to-amber-400",
  "from-emerald-700 to-lime-400",
  "from-sky-700 to-indigo-400",
  "from-fuchsia-700 to-orange-400",
  "from-slate-800 to-red-500",
  "from-teal-700 to-yellow-300",
  "from-blue-800 to-pink-400",
  "from-amber-600 to-red-400",
  "from-cyan-700 to-emerald-300",
] as const;

/** The same gradient for a game every time: a small hash of its slug picks one (the seeded games all differ). */
export function gameGradient(slug: string) {
  let hash = 0;
  for (const char of slug) hash = (hash * 33 + char.charCodeAt(0)) >>> 0;
  return GRADIENTS[hash % GRADIENTS.length]!;
}

/**
 * A game's cover: its image when it has one (`cover_url`), else a gradient of its own with the name on it, so a fresh
 * start needs no image files (README: Games and communities).
 */
export function GameCover({ game, size = "card", eager = false }: { game: GameSummary; size?: "card" | "hero"; eager?: boolean }) {
  const box = size === "hero" ? "aspect-[3/1] rounded-2xl" : "aspect-video rounded-t-xl";
  if (game.coverUrl) {
    return (
      <img
        src={game.coverUrl}
        alt=""
        width={size === "hero" ? 1200 : 640}
        height={size === "hero" ? 400 : 360}
        loading={eager ? "eager" : "lazy"}
        className={`${box} w-full bg-slate-200 object-cover`}
      />
    );
  }
  return (
    <div aria-hidden="true" className={`${box} flex w-full items-end bg-gradient-to-br p-4 ${gameGradient(game.slug)}`}>
      <span className={`font-extrabold text-white/90 drop-shadow ${size === "hero" ? "text-3xl sm:text-4xl" : "text-lg"}`}>{game.name}</span>
    </div>
  );
}
