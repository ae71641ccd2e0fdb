/** The coin: beside every amount of coins, in the header's balance and on the packages. */
export function CoinIcon({ size = 18 }: { size?: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width={size} height={size} className="shrink-0">
      <circle cx="12" cy="12" r="10" fill="#f59e0b" />
      <circle cx="12" cy="12" r="7" fill="#fbbf24" stroke="#b45309" strokeWidth="1.2" />
      <path d="M12 8v8M9.5 10h5M9.5 14h5" stroke="#92400e" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

