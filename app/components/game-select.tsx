/** The ゲーム filter of a list (explore, tickets, events): every game, or one; sent as `game` with the list's GET form. */
export function GameSelect({
  id,
  games,
  defaultValue,
  className,
  selectClassName = "field-input",
}: {
  id: string;
  games: readonly { slug: string; name: string }[];
  defaultValue: string;
  className?: string;
  selectClassName?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        ゲーム
      </label>
      <select id={id} name="game" defaultValue={defaultValue} className={selectClassName}>
        <option value="">すべてのゲーム</option>
        {games.map((game) => (
          <option key={game.slug} value={game.slug}>
            {game.name}
          </option>
        ))}
      </select>
    </div>
  );
}
