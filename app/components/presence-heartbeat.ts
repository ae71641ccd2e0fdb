import { useEffect } from "react";
import { createHeartbeat } from "~/lib/heartbeat";
import { useAuth } from "./auth-provider";

/** Posts the presence heartbeat while signed in and the tab is visible (docs/product.md#states, #api). Mounted once, in root. */
export function usePresenceHeartbeat() {
  const { api, status } = useAuth();
  const signedIn = status === "signedIn";
  useEffect(() => {
    const heartbeat = createHeartbeat({ beat: () => api.post("/api/user/online-status"), visibility: document });
    heartbeat.setSignedIn(signedIn);
    return () => heartbeat.setSignedIn(false);
  }, [api, signedIn]);
}
