import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SessionList } from "~/components/session-list";
import { requireProfile } from "~/http/auth.server";
import { pageMeta } from "~/lib/meta";
import { loadSessionList } from "~/models/auth/session-list.server";

export const meta: MetaFunction = () => pageMeta("セキュリティ");

/** The caller's live sessions, read from the primary: the list just after a 「ログアウト」 must not show the session again. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  return { sessions: await loadSessionList({ db: context.db, user }) };
}

export default function SecurityPage() {
  const { sessions } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="security-title" className="space-y-6">
      <h1 id="security-title" className="text-2xl font-bold">
        セキュリティ
      </h1>
      <SessionList sessions={sessions} />
    </section>
  );
}
