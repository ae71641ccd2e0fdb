import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiOk, requireApiUser } from "~/http/api.server";
import { listBookings } from "~/models/bookings/queries.server";

/** GET /api/tickets/all → data.tickets: the caller's bookings as buyer and seller, newest first (docs/product.md#data, #api). */
export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireApiUser(context);
  const bookings = await listBookings({ db: context.db, userId: user.id });
  return apiOk({ data: { tickets: bookings } });
}
