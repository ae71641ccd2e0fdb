import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList } from "~/components/forms";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { MAIL_KINDS } from "~/lib/constants/mail";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { mailPreferencesSchema } from "~/lib/mail-schemas";
import { messages } from "~/lib/messages";
import * as mailText from "~/lib/messages/mail";
import { pageMeta } from "~/lib/meta";
import { getMailPreferences, mailAddressOf, saveMailPreferences } from "~/models/mail-preferences.server";

export const meta: MetaFunction = () => pageMeta(mailText.settingsTitle);

/** `/settings/notifications`: which notification mails the user gets (PRODUCT §3), every kind on by default. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const [preferences, address] = await Promise.all([getMailPreferences({ db: context.db, userId: user.id }), mailAddressOf({ db: context.db, userId: user.id })]);
  return { preferences, address, rules: formRules(mailPreferencesSchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: mailPreferencesSchema });
  // Only a forged form sends a kind that is not one of the boxes: said once for the whole form.
  if (submission.status !== "success") return data({ result: submission.reply({ formErrors: [messages.validation.checkInput] }) }, { status: 400 });
  await saveMailPreferences({ db: context.db, userId: user.id, enabled: submission.value.kinds });
  throw await redirectWithToast(request, context.config, "/settings/notifications", { type: "success", title: mailText.settingsSaved });
}

export default function NotificationSettingsPage() {
  const { preferences, address, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  const [form] = useConstraintForm({ id: "mail-preferences", lastResult, rules });
  return (
    <section aria-labelledby="mail-settings-title" className="space-y-6">
      <div>
        <h1 id="mail-settings-title" className="text-2xl font-bold">
          {mailText.settingsTitle}
        </h1>
        <p className="mt-1 text-slate-600">{mailText.settingsLead}</p>
        <p className="mt-2 text-sm text-slate-600">{address ? mailText.settingsAddress(address) : mailText.settingsNoAddress}</p>
      </div>
      <Form method="post" {...getFormProps(form)} key={JSON.stringify(preferences)} className="space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <fieldset>
          <legend className="font-semibold">{mailText.settingsLegend}</legend>
          <ul className="mt-3 divide-y divide-slate-100">
            {MAIL_KINDS.map((kind) => (
              <li key={kind}>
                <label className="flex min-h-11 items-center gap-3 py-2">
                  <input type="checkbox" name="kinds" value={kind} defaultChecked={preferences[kind]} className="size-5" />
                  {mailText.kindLabels[kind]}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary" disabled={submitting}>
          {mailText.settingsSave}
        </button>
      </Form>
      <p className="text-sm">
        <Link to="/settings" className="text-brand-700 underline">
          {mailText.settingsBack}
        </Link>
      </p>
    </section>
  );
}
