import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from "react";
import { formatNumber } from "~/lib/format";
import { RealtimeEvent } from "~/lib/realtime-events";
import { CoinIcon } from "./coin-icon";
import { CoinPurchaseContext, useCoinPurchaseDialog } from "./coin-purchase-context";
import { DialogLink } from "./dialog-link";
import { useLiveCount } from "./use-live-count";

/** Says "the coin balance may have changed" to the header from elsewhere in the tab (a booking, a tip). */
export const COINS_CHANGED_EVENT = "gm:coins-changed";

/** Where the dialog's no-JavaScript twin lives: the same packages as a page. */
export const COINS_PAGE = "/coins";

// The dialog's code loads the first time it opens, not with every page.
const CoinPurchaseDialog = lazy(() => import("./coin-purchase-dialog"));

export function CoinPurchaseProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (open) setOpened(true);
  }, [open]);
  const value = useMemo(() => ({ open, setOpen }), [open]);
  return (
    <CoinPurchaseContext.Provider value={value}>
      {children}
      {/* Mounted from the first opening on, so closing it keeps the element and returns focus as a dialog should. */}
      {open || opened ? (
        <Suspense fallback={null}>
          <CoinPurchaseDialog />
        </Suspense>
      ) : null}
    </CoinPurchaseContext.Provider>
  );
}

/** The live coin balance of the signed-in user; the server's figure paints first. A failed read is 0 (docs/product.md#errors). */
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
  return (
    <BuyCoinsLink className={className}>
      <CoinIcon />
      <span data-testid="coin-balance">{formatNumber(balance)}</span>
      <span className="sr-only">コイン（コインを購入）</span>
    </BuyCoinsLink>
  );
}
