import { Link } from "@remix-run/react";

/** 「サブスク限定」: the post opens only to the author's active subscribers (the dialog and the new post page). */
export function SubscribersOnlyField({ name, checked, defaultChecked, onChange }: { name: string; checked?: boolean; defaultChecked?: boolean; onChange?: (checked: boolean) => void }) {
  return (
    <div>
      <label className="flex items-center gap-2 font-semibold text-slate-800">
        <input type="checkbox" name={name} className="size-4" checked={checked} defaultChecked={defaultChecked} onChange={onChange ? (event) => onChange(event.target.checked) : undefined} />
        サブスク限定にする
      </label>
      <p className="mt-1 text-xs text-slate-600">
        サブスク登録中の人だけが見られます。ほかの人には鍵つきで表示されます（
        <Link to="/settings/store/subscription" className="underline">
          サブスクプランの設定
        </Link>
        ）。
      </p>
    </div>
  );
}
