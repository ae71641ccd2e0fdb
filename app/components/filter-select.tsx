/**
 * One choice of a list's filter: a select in a plain GET form (it works without JavaScript, and the address keeps the
 * filter), its label above, "all" first (the empty value), then the options.
 */
export function FilterSelect({
  id,
  name,
  label,
  allLabel,
  value,
  options,
  className,
  selectClassName = "field-input",
}: {
  id: string;
  name: string;
  label: string;
  /** The first option, the empty value: no filter. */
  allLabel: string;
  /** The filter as the page was asked for, or "" for all. */
  value: string;
  options: readonly { value: string; label: string }[];
  className?: string;
  selectClassName?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={selectClassName}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The ゲーム filter of a list (explore, tickets, events): every game, or one; sent as `game` with the list's GET form. */
export function GameSelect({
  id,
  games,
  defaultValue,
  className,
  selectClassName,
}: {
  id: string;
  games: readonly { slug: string; name: string }[];
  defaultValue: string;
  className?: string;
  selectClassName?: string;
}) {
  return (
    <FilterSelect
      id={id}
      name="game"
      label="ゲーム"
      allLabel="すべてのゲーム"
      value={defaultValue}
      options={games.map((game) => ({ value: game.slug, label: game.name }))}
      className={className}
      selectClassName={selectClassName}
    />
  );
}
