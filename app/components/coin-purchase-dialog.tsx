import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import { CoinPackageChoices } from "./coin-packages";
import { useCoinPurchaseDialog } from "./coin-purchase-context";

/**
 * The coin purchase dialog (docs/product.md#screens): a modal `<dialog>` (focus stays inside, Escape closes, focus returns to
 * what opened it). Choosing a package closes it, then goes to its checkout page.
 */
export default function CoinPurchaseDialog() {
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
  // Any navigation (the back button included) closes it; mounting (on the first opening) is no navigation.
  const openedAt = useRef(key);
  useEffect(() => {
    if (key !== openedAt.current) {
      openedAt.current = key;
      setOpen(false);
    }
  }, [key, setOpen]);

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
