export const saved = "プロフィールを保存しました";
export const notSetUp = "プロフィールが未設定です";
export const avatarSaved = "アバター画像を変更しました";
export const avatarRemoved = "アバター画像を削除しました";
