import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { ErrorList } from "~/components/forms";
import { requireProfile } from "~/http/auth.server";
import { readFormData } from "~/http/forms.server";
import { redirectWithToast } from "~/http/toast.server";
import { getFormProps, useConstraintForm } from "~/lib/constraint-form";
import { formRules } from "~/lib/form-rules.server";
import { messages } from "~/lib/messages";
import * as privacyText from "~/lib/messages/privacy";
import { pageMeta } from "~/lib/meta";
import { getGuildPrivacy, setShowDiscordGuilds } from "~/models/discord-guilds.server";

export const meta: MetaFunction = () => pageMeta(privacyText.settingsMetaTitle);

/** The one box: a checked box sends `on`, a clear one nothing; any other value is a forged form. */
const privacySchema = z.object({
  showDiscordGuilds: z.literal("on", { errorMap: () => ({ message: messages.validation.checkInput }) }).optional(),
});

/** `/settings/privacy`: whether profiles show the Discord servers shared with the viewer, off by default. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const privacy = await getGuildPrivacy({ db: context.db, userId: user.id });
  return { ...privacy, rules: formRules(privacySchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireProfile(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: privacySchema });
  if (submission.status !== "success") return data({ result: submission.reply({ formErrors: [messages.validation.checkInput] }) }, { status: 400 });
  await setShowDiscordGuilds({ db: context.db, userId: user.id, show: submission.value.showDiscordGuilds === "on" });
  throw await redirectWithToast(request, context.config, "/settings/privacy", { type: "success", title: privacyText.settingsSaved });
}

export default function PrivacySettingsPage() {
  const { showDiscordGuilds, storedGuilds, rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.result;
  const submitting = useNavigation().state !== "idle";
  const [form] = useConstraintForm({ id: "privacy", lastResult, rules });
  return (
    <section aria-labelledby="privacy-title" className="space-y-6">
      <h1 id="privacy-title" className="text-2xl font-bold">
        {privacyText.settingsTitle}
      </h1>
      <Form method="post" {...getFormProps(form)} key={String(showDiscordGuilds)} className="space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div id="privacy-guilds-kept" className="space-y-2 text-sm text-slate-600">
          <h2 className="font-semibold text-slate-800">{privacyText.guildsKeptTitle}</h2>
          <ul className="list-disc space-y-1 pl-5">
            {privacyText.guildsKept.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="font-semibold text-slate-800">{storedGuilds > 0 ? privacyText.storedGuilds(storedGuilds) : privacyText.noStoredGuilds}</p>
        </div>
        <label className="flex min-h-11 items-center gap-3 font-semibold">
          <input type="checkbox" name="showDiscordGuilds" value="on" defaultChecked={showDiscordGuilds} aria-describedby="privacy-guilds-kept" className="size-5 shrink-0" />
          {privacyText.showGuildsLabel}
        </label>
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="btn-primary" disabled={submitting}>
          {privacyText.settingsSave}
        </button>
      </Form>
      <p className="text-sm">
        <Link to="/settings" className="text-brand-700 underline">
          {privacyText.settingsBack}
        </Link>
      </p>
    </section>
  );
}
