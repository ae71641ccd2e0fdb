import { UPLOAD_MAX_BYTES } from "../constants/posts";

export const tooLarge = `画像のサイズは${UPLOAD_MAX_BYTES / 1024 / 1024}MBまでです`;
export const rateLimited = "画像のアップロードが多すぎます。しばらくしてから再度お試しください。";
export const fileRequired = "画像を選択してください";
