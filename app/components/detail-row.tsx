import type { ReactNode } from "react";

/** One line of a confirmation table (what is bought, for how much): a row header and its value. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row" className="w-1/3 bg-slate-50 px-4 py-3 text-left font-semibold text-slate-700">
        {label}
      </th>
      <td className="break-words px-4 py-3">{children}</td>
    </tr>
  );
}
