import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { deskRefusesPosts, readOperator, requireOperator } from "~/http/desk.server";
import { ANY_OPERATOR } from "~/lib/constants/desk";
import * as text from "~/lib/messages/desk";
import { deskMeta } from "~/lib/desk-meta";

export const meta: MetaFunction = () => deskMeta(text.twoStepTitle);

/**
 * `/admin/two-step`: where the desk sends an operator signed in without the second step because their account has no
 * authenticator app (ADR 071). It explains and links to the security settings. Anyone not an operator gets the 404 of
 * the desk; an operator who can use the desk goes there (requireOperator answers the code page when one is owed).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await readOperator(request, context, ANY_OPERATOR);
  if (user.aal === "aal2" || user.secondStepPending) {
    await requireOperator(request, context, ANY_OPERATOR);
    throw redirect("/admin");
  }
  return null;
}

/** Nothing is posted here (ADR 071). */
export const action = deskRefusesPosts;

export default function DeskTwoStep() {
  return (
    <section aria-labelledby="desk-two-step-title" className="mx-auto max-w-xl space-y-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 id="desk-two-step-title" className="text-xl font-bold">
        {text.twoStepTitle}
      </h1>
      <p className="text-slate-700">{text.twoStepBody}</p>
      <p>
        <Link to="/settings/security" className="btn-primary">
          {text.twoStepLink}
        </Link>
      </p>
    </section>
  );
}
