import type { DiscordClient, DiscordUser } from "../../app/infra/discord";

/**
 * What Discord said about the person, as GoTrue keeps it in the identity (and in a new account's user_metadata), as
 * its provider/discord.go maps it: `full_name` the username, `custom_claims.global_name` the display name,
 * `avatar_url` on Discord's CDN.
 */
export function discordIdentityData(user: DiscordUser, discord: DiscordClient) {
  const avatarUrl = discord.avatarUrl(user);
  return {
    iss: `${discord.origin}/api`,
    sub: user.id,
    provider_id: user.id,
    name: user.username,
    full_name: user.username,
    ...(user.globalName ? { custom_claims: { global_name: user.globalName } } : {}),
    ...(avatarUrl ? { avatar_url: avatarUrl, picture: avatarUrl } : {}),
    email: user.email,
    email_verified: user.verified,
    phone_verified: false,
  };
}
