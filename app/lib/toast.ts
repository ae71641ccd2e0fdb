import { z } from "zod";

/** A short message shown for 3 seconds (docs/product.md#constants): flashed by a form action, or a live notification. */
export const toastSchema = z.object({
  id: z.string().min(1).max(64),
  type: z.enum(["success", "error", "info"]),
  title: z.string().min(1).max(100),
  description: z.string().max(500).optional(),
  /** Where clicking the toast goes (a path inside the app). */
  link: z.string().regex(/^\/(?![/\\])/).optional(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = Omit<Toast, "id"> & { id?: string };
