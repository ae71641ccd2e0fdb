/** The games someone plays, each with their rank or role (a profile, マイページ). */
export function GameChips({ games }: { games: ReadonlyArray<{ slug: string; name: string; rank: string }> }) {
  if (games.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="遊んでいるゲーム">
      {games.map((game) => (
        <li key={game.slug} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-700">
          {game.name}
          {game.rank ? `（${game.rank}）` : ""}
        </li>
      ))}
    </ul>
  );
}
