import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A form of one button that posts its `intent` (join, leave, block …) to the page's action, or to `action`: a plain
 * POST that works before JavaScript loads.
 */
export function IntentButton({
  intent,
  action,
  className,
  disabled,
  children,
}: {
  intent: string;
  action?: string;
  className: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className={className} disabled={disabled}>
        {children}
      </button>
    </Form>
  );
}
