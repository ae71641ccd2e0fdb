import { Link, useLocation, useNavigate } from "@remix-run/react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { COIN_PACKAGES, discountPercent } from "~/lib/constants";
import { formatNumber } from "~/lib/format";
import { RealtimeEvent } from "~/lib/realtime-events";
import { DialogLink } from "./dialog-link";
import { useLiveCount } from "./use-live-count";
import { useTicketReloads } from "./use-ticket-reloads";

/** Says "the coin balance may have changed" to the header from elsewhere in the tab (a booking, a tip). */
export const COINS_CHANGED_EVENT = "gm:coins-changed";

/** Where the dialog's no-JavaScript twin lives: the same packages as a page. */
export const COINS_PAGE = "/coins";

interface CoinPurchaseState {
  open: boolean;
  setOpen(open: boolean): void;
}

/** The one open/close flag of the coin purchase dialog (SPEC §4), shared by everything that opens it. */
const CoinPurchaseContext = createContext<CoinPurchaseState>({ open: false, setOpen: () => {} });

export const useCoinPurchaseDialog = () => useContext(CoinPurchaseContext);

export function CoinPurchaseProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const value = useMemo(() => ({ open, setOpen }), [open]);
  return (
    <CoinPurchaseContext.Provider value={value}>
      {children}
      <CoinPurchaseDialog />
    </CoinPurchaseContext.Provider>
  );
}

/** The live coin balance of the signed-in user; the server's figure paints first. A failed read is 0 (SPEC §8). */
export function useCoinBalance(initial: number) {
  return useLiveCount({
    path: "/api/coins/balance",
    event: RealtimeEvent.coinsPurchaseCompleted,
    windowEvent: COINS_CHANGED_EVENT,
    initial,
    pick: (body) => (body as { totalBalance?: number } | undefined)?.totalBalance,
  });
}

/**
 * A link to the packages page that, once JavaScript runs, opens the dialog instead: every "buy coins" control
 * (the header's balance, a "not enough coins" message) is one of these.
 */
export function BuyCoinsLink({ className, children }: { className: string; children: ReactNode }) {
  const { setOpen } = useCoinPurchaseDialog();
  return (
    <DialogLink to={COINS_PAGE} onOpen={() => setOpen(true)} className={className}>
      {children}
    </DialogLink>
  );
}

/** The header's balance: the number of coins, a coin icon, and the way to buy more. */
export function CoinBalanceButton({ className, initialBalance }: { className: string; initialBalance: number }) {
  const balance = useCoinBalance(initialBalance);
  // A booking cancelled for this buyer, on whatever page they are (SPEC §4): the refund shows in the header at once.
  useTicketReloads({ refreshBalance: () => window.dispatchEvent(new Event(COINS_CHANGED_EVENT)) });
  return (
    <BuyCoinsLink className={className}>
      <CoinIcon />
      <span data-testid="coin-balance">{formatNumber(balance)}</span>
      <span className="sr-only">コイン（コインを購入）</span>
    </BuyCoinsLink>
  );
}

export function CoinIcon({ size = 18 }: { size?: number }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width={size} height={size} className="shrink-0">
      <circle cx="12" cy="12" r="10" fill="#f59e0b" />
      <circle cx="12" cy="12" r="7" fill="#fbbf24" stroke="#b45309" strokeWidth="1.2" />
      <path d="M12 8v8M9.5 10h5M9.5 14h5" stroke="#92400e" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/** The seven packages: coins, price with tax, and the 「N% お得」 badge when there is a discount (SPEC §9). */
export function CoinPackageChoices({ onChoose }: { onChoose?: (packageId: number) => void }) {
  return (
    <ul className="grid gap-2 sm:grid-cols-2" aria-label="コインパッケージ">
      {COIN_PACKAGES.map((pack) => {
        const discount = discountPercent(pack);
        return (
          <li key={pack.id}>
            <Link
              to={`/coins/checkout/${pack.id}`}
              onClick={
                onChoose
                  ? (event) => {
                      event.preventDefault();
                      onChoose(pack.id);
                    }
                  : undefined
              }
              className="flex min-h-14 items-center gap-3 rounded-xl bg-white px-4 py-3 ring-1 ring-slate-200 hover:bg-brand-50 hover:ring-brand-300 focus-visible:ring-2 focus-visible:ring-brand-600"
            >
              <CoinIcon size={24} />
              <span className="flex-1 font-bold">{pack.name}</span>
              {discount > 0 ? <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-bold text-red-700">{discount}% お得</span> : null}
              <span className="text-right font-semibold whitespace-nowrap">
                ¥{formatNumber(pack.price)}
                <span className="block text-xs font-normal text-slate-600">税込</span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The coin purchase dialog (SPEC §2): a modal `<dialog>` (focus stays inside, Escape closes, focus returns to
 * what opened it). Choosing a package closes it, then goes to its checkout page.
 */
function CoinPurchaseDialog() {
  const { open, setOpen } = useCoinPurchaseDialog();
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const { key } = useLocation();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  // Any navigation (the back button included) closes it.
  useEffect(() => setOpen(false), [key, setOpen]);

  const choose = useCallback(
    (packageId: number) => {
      setOpen(false);
      navigate(`/coins/checkout/${packageId}`);
    },
    [navigate, setOpen],
  );

  return (
    <dialog
      ref={dialog}
      aria-labelledby="coin-dialog-title"
      onClose={() => setOpen(false)}
      onClick={(event) => event.target === dialog.current && setOpen(false)}
      className="m-auto w-[min(40rem,calc(100%-1.5rem))] rounded-2xl bg-slate-50 p-0 shadow-xl backdrop:bg-slate-900/50"
    >
      {open ? (
        <div className="p-4 sm:p-6">
          <div className="mb-4 flex items-center justify-between gap-3">
            <h2 id="coin-dialog-title" className="text-lg font-bold">
              コインを購入
            </h2>
            <button type="button" className="rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-200" onClick={() => setOpen(false)}>
              閉じる
            </button>
          </div>
          <CoinPackageChoices onChoose={choose} />
          <p className="mt-4 text-xs text-slate-600">
            価格はすべて税込です。購入したコインの返金・換金はできません。
            <Link to="/transaction-act" className="ml-1 text-brand-700 underline" onClick={() => setOpen(false)}>
              特定商取引法に基づく表記
            </Link>
          </p>
        </div>
      ) : null}
    </dialog>
  );
}
