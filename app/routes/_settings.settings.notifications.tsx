import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList } from "~/components/forms";
import { PushDeviceControl } from "~/components/push-device";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { MAIL_KINDS } from "~/lib/constants/mail";
import { PUSH_KINDS } from "~/lib/constants/push";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import * as mailText from "~/lib/messages/mail";
import * as pushText from "~/lib/messages/push";
import { pageMeta } from "~/lib/meta";
import { formatDateTime } from "~/lib/time";
import { mailPreferencesSchema } from "~/lib/validation/mail";
import { pushPreferencesSchema, removePushDeviceSchema } from "~/lib/validation/push";
import { getMailPreferences, mailAddressOf, saveMailPreferences } from "~/models/mail-preferences.server";
import { getPushPreferences, listPushDevices, PushError, removePushDevice, savePushPreferences } from "~/models/push.server";

export const meta: MetaFunction = () => pageMeta(mailText.settingsTitle);

/**
 * `/settings/notifications`: which notification mails the user gets (docs/product.md#accounts), every kind on by default; and Web
 * Push (ADR 052): this device's 「この端末にプッシュ通知」, the devices that get pushes with 「解除」, and the kinds pushed.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const [preferences, address, pushPreferences, devices] = await Promise.all([
    getMailPreferences({ db: context.db, userId: user.id }),
    mailAddressOf({ db: context.db, userId: user.id }),
    getPushPreferences({ db: context.db, userId: user.id }),
    listPushDevices({ db: context.db, userId: user.id }),
  ]);
  return { preferences, address, rules: formRules(mailPreferencesSchema), pushPreferences, devices, publicKey: context.config.VAPID_PUBLIC_KEY };
}

/** The page's forms, told apart by `intent`: the mail kinds (none, as before), `push-kinds`, `remove-device`. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent === "remove-device") {
    const parsed = removePushDeviceSchema.safeParse({ deviceId: formData.get("deviceId") });
    try {
      if (!parsed.success) throw new PushError(404, "subscription_not_found");
      await removePushDevice({ db: context.db, userId: user.id, id: parsed.data.deviceId });
    } catch (error) {
      if (error instanceof PushError) return data({ pushError: pushText.subscriptionNotFound }, { status: 404 });
      throw error;
    }
    throw await redirectWithToast(request, context.config, "/settings/notifications", { type: "success", title: pushText.removed });
  }
  if (intent === "push-kinds") {
    const submission = parseWithZod(formData, { schema: pushPreferencesSchema });
    if (submission.status !== "success") return data({ pushError: messages.validation.checkInput }, { status: 400 });
    await savePushPreferences({ db: context.db, userId: user.id, enabled: submission.value.pushKinds });
    throw await redirectWithToast(request, context.config, "/settings/notifications", { type: "success", title: pushText.kindsSaved });
  }
  const submission = parseWithZod(formData, { schema: mailPreferencesSchema });
  // Only a forged form sends a kind that is not one of the boxes: said once for the whole form.
  if (submission.status !== "success") return data({ result: submission.reply({ formErrors: [messages.validation.checkInput] }) }, { status: 400 });
  await saveMailPreferences({ db: context.db, userId: user.id, enabled: submission.value.kinds });
  throw await redirectWithToast(request, context.config, "/settings/notifications", { type: "success", title: mailText.settingsSaved });
}

export default function NotificationSettingsPage() {
  const { preferences, address, rules, pushPreferences, devices, publicKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "result" in actionData ? actionData.result : undefined;
  const pushError = actionData && "pushError" in actionData ? actionData.pushError : undefined;
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
        <KindChoices legend={mailText.settingsLegend} name="kinds" kinds={MAIL_KINDS} labels={mailText.kindLabels} checked={preferences} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary" disabled={submitting}>
          {mailText.settingsSave}
        </button>
      </Form>
      <section aria-labelledby="push-settings-title" className="space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div>
          <h2 id="push-settings-title" className="text-lg font-bold">
            {pushText.sectionTitle}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{pushText.sectionLead}</p>
        </div>
        <PushDeviceControl publicKey={publicKey} deviceTags={devices.map((device) => device.endpointTag)} />
        {pushError ? (
          <p role="alert" className="text-sm text-red-700">
            {pushError}
          </p>
        ) : null}
        <div>
          <h3 className="font-semibold">{pushText.devicesLegend}</h3>
          {devices.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">{pushText.noDevices}</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100">
              {devices.map((device) => (
                <li key={device.id} className="flex min-h-11 items-center justify-between gap-3 py-2">
                  <div>
                    <p>{device.label}</p>
                    <p className="text-xs text-slate-500">
                      {pushText.deviceAdded(formatDateTime(device.createdAt))}・
                      {device.lastSuccessAt ? pushText.deviceLastSuccess(formatDateTime(device.lastSuccessAt)) : pushText.deviceNeverReached}
                    </p>
                  </div>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove-device" />
                    <input type="hidden" name="deviceId" value={device.id} />
                    <button type="submit" className="btn-secondary" aria-label={pushText.removeLabel(device.label)} disabled={submitting}>
                      {pushText.remove}
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </div>
        <Form method="post" key={JSON.stringify(pushPreferences)} className="space-y-3">
          <input type="hidden" name="intent" value="push-kinds" />
          <KindChoices legend={pushText.kindsLegend} name="pushKinds" kinds={PUSH_KINDS} labels={pushText.kindLabels} checked={pushPreferences} />
          <button type="submit" className="btn-primary" disabled={submitting}>
            {pushText.kindsSave}
          </button>
        </Form>
      </section>
      <p className="text-sm">
        <Link to="/settings" className="text-brand-700 underline">
          {mailText.settingsBack}
        </Link>
      </p>
    </section>
  );
}

/** One checkbox per kind (of mail, of push), checked for the kinds the user takes; posted as `name`, once per kind. */
function KindChoices<Kind extends string>({
  legend,
  name,
  kinds,
  labels,
  checked,
}: {
  legend: string;
  name: string;
  kinds: readonly Kind[];
  labels: Record<Kind, string>;
  checked: Record<Kind, boolean>;
}) {
  return (
    <fieldset>
      <legend className="font-semibold">{legend}</legend>
      <ul className="mt-3 divide-y divide-slate-100">
        {kinds.map((kind) => (
          <li key={kind}>
            <label className="flex min-h-11 items-center gap-3 py-2">
              <input type="checkbox" name={name} value={kind} defaultChecked={checked[kind]} className="size-5" />
              {labels[kind]}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
