import { useEffect, useState } from "react";
import { RealtimeEvent } from "~/lib/realtime-events";
import { useRealtimeEvent } from "./realtime-provider";

/** Whether the user is online: the server's answer, then every `presence` event about them. */
export function useOnline(userId: string, initial: boolean) {
  const [online, setOnline] = useState(initial);
  // Fresh loader data is the truth again.
  useEffect(() => setOnline(initial), [initial]);
  useRealtimeEvent<{ userId: string; online: boolean }>(RealtimeEvent.presence, (event) => {
    if (event.userId === userId) setOnline(event.online);
  });
  return online;
}

const sizes = {
  sm: { px: 32, className: "size-8 text-sm" },
  md: { px: 40, className: "size-10" },
  lg: { px: 64, className: "size-16 text-2xl" },
} as const;

/**
 * A person's picture (or their initial), with the green dot while they are online. Pass `userId` and
 * `online` to show presence, live.
 */
export function Avatar({
  name,
  src,
  size = "md",
  presence,
}: {
  name: string;
  src: string | null;
  size?: keyof typeof sizes;
  presence?: { userId: string; online: boolean };
}) {
  return (
    <span className="relative inline-flex shrink-0">
      {src ? (
        <img src={src} alt="" width={sizes[size].px} height={sizes[size].px} loading="lazy" className={`${sizes[size].className} rounded-full object-cover`} />
      ) : (
        <span aria-hidden="true" className={`${sizes[size].className} flex items-center justify-center rounded-full bg-brand-100 font-bold text-brand-700`}>
          {name.slice(0, 1)}
        </span>
      )}
      {presence ? <OnlineDot {...presence} /> : null}
    </span>
  );
}

function OnlineDot({ userId, online: initial }: { userId: string; online: boolean }) {
  const online = useOnline(userId, initial);
  if (!online) return null;
  return (
    <span
      className="absolute right-0 bottom-0 size-3 rounded-full bg-green-500 ring-2 ring-white"
      role="img"
      aria-label="オンライン"
      data-testid="online-dot"
    />
  );
}
