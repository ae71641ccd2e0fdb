// `no-inline`: a file of its own even though it is small, so the icons are one cached request and not a data URL in
// the JavaScript (a <use> cannot point into a data URL anyway).
import sprite from "~/assets/nav-icons.svg?url&no-inline";

export type NavIconName = "home" | "search" | "ticket" | "chat" | "user" | "feed" | "login" | "menu";

/** One of the navigation's icons (app/assets/nav-icons.svg). Decorative: the link or button's own text names it. */
export function NavIcon({ name, className = "size-6" }: { name: NavIconName; className?: string }) {
  return (
    <svg aria-hidden="true" className={className}>
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
