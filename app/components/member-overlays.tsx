import { ChatPopups } from "./chat-popups";
import { COINS_CHANGED_EVENT } from "./coin-purchase";
import { useLiveToasts } from "./live-toasts";
import { usePresenceHeartbeat } from "./presence-heartbeat";
import { ReportDialogHost } from "./report-dialog-host";
import { useBookingReloads } from "./use-booking-reloads";

/** The overlays and background work of a signed-in tab (root loads this module for members only). */
export default function MemberOverlays() {
  usePresenceHeartbeat();
  useLiveToasts();
  // A booking cancelled for this buyer, on whatever page they are (docs/product.md#states): the refund shows in the header at once.
  useBookingReloads({ refreshBalance: () => window.dispatchEvent(new Event(COINS_CHANGED_EVENT)) });
  return (
    <>
      <ChatPopups />
      <ReportDialogHost />
    </>
  );
}
