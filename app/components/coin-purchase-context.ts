import { createContext, useContext } from "react";

interface CoinPurchaseState {
  open: boolean;
  setOpen(open: boolean): void;
}

/**
 * The one open/close flag of the coin purchase dialog (docs/product.md#states), shared by everything that opens it. A module of its
 * own so that the dialog, loaded lazily by the provider (coin-purchase.tsx), reads it without importing its provider.
 */
export const CoinPurchaseContext = createContext<CoinPurchaseState>({ open: false, setOpen: () => {} });

export const useCoinPurchaseDialog = () => useContext(CoinPurchaseContext);
