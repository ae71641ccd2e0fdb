import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFoundMessage } from "~/lib/messages";

/** Any path no route claims: a 404 carrying `Page not found: {path}` (docs/product.md#errors). */
export async function loader({ request }: LoaderFunctionArgs) {
  throw new Response(notFoundMessage(new URL(request.url).pathname), { status: 404, statusText: "Not Found" });
}

// The loader always throws, so the default layout's error boundary renders the page; actions on unknown paths 404 too.
export const action = loader;

export default function NotFound() {
  return null;
}
