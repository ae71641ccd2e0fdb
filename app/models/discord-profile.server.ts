import type { Database } from "~/infra/db/tables";
import { fetchDiscordImage } from "~/infra/discord";
import type { OutboundPolicy } from "~/infra/outbound";
import { log } from "~/infra/logger.server";
import type { Realtime } from "~/infra/realtime";
import type { ImageStorage } from "~/infra/storage";
import { DISPLAY_NAME_MAX } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { profileSchema } from "~/lib/validation/profile";
import { setAvatar, saveProfile } from "./user.server";
import { storeImage, UploadError } from "./uploads.server";


/**
 * A gamer who signed in with Discord for the first time gets a profile from it: their display name
 * (Discord's global name, else the username) and their avatar, fetched once from Discord's CDN and re-encoded through
 * the upload pipeline like any avatar (never hot-linked). Works the same with hosted Supabase and the embedded auth: it
 * reads what both keep in user_metadata. The welcome notification comes as for any new profile. The avatar is a
 * nicety: when Discord's CDN fails, the profile is made without it.
 */
export async function createProfileFromDiscord({
  db,
  realtime,
  storage,
  userId,
  email,
  metadata,
  cdnUrl,
  timeoutMs,
  outbound,
}: {
  db: Database;
  realtime: Realtime;
  storage: ImageStorage;
  userId: string;
  email: string | null;
  metadata: Record<string, unknown>;
  cdnUrl: string;
  timeoutMs: number;
  /** Where the avatar may be fetched from (ADR 054). */
  outbound: OutboundPolicy;
}) {
  const claims = (metadata.custom_claims ?? {}) as Record<string, unknown>;
  const displayName = [claims.global_name, metadata.full_name, metadata.name]
    // A name longer than ours is cut (by characters, not UTF-16 units), not thrown away.
    .map((candidate) => (typeof candidate === "string" ? profileSchema.shape.displayName.safeParse(Array.from(candidate.trim()).slice(0, DISPLAY_NAME_MAX).join("")) : null))
    .find((parsed) => parsed?.success)?.data;
  const { created } = await saveProfile({ db, realtime, userId, email, input: { displayName: displayName ?? messages.auth.discordFallbackName, bio: "", games: [] } });
  if (!created || typeof metadata.avatar_url !== "string") return;
  const bytes = await fetchDiscordImage(metadata.avatar_url, { cdnUrl, timeoutMs, outbound });
  if (!bytes) return;
  try {
    const image = await storeImage({ db, storage, userId, kind: "avatar", bytes });
    await setAvatar({ db, userId, avatarUrl: image.url });
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    log.warn({ err: error, userId }, "discord: the avatar could not be used");
  }
}
