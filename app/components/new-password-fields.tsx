import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/lib/constants";
import type { FieldMeta } from "~/lib/constraint-form";
import { TextField } from "./forms";

/** The new password, twice: /reset-password and /settings/password. */
export function NewPasswordFields({ password, confirmPassword }: { password: FieldMeta; confirmPassword: FieldMeta }) {
  return (
    <>
      <TextField
        meta={password}
        label="新しいパスワード"
        type="password"
        autoComplete="new-password"
        hint={`${PASSWORD_MIN_LENGTH}〜${PASSWORD_MAX_LENGTH}文字`}
      />
      <TextField meta={confirmPassword} label="新しいパスワード（確認）" type="password" autoComplete="new-password" />
    </>
  );
}
