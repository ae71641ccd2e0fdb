import type { ChatRoom } from "~/models/chat.server";

/** What a room is called for the viewer: its name, else the other participants' names. */
export function roomTitle(room: { name: string | null; participants: Pick<ChatRoom["participants"][number], "uid" | "displayName">[] }, viewerId: string) {
  if (room.name) return room.name;
  const others = room.participants.filter((p) => p.uid !== viewerId).map((p) => p.displayName);
  return others.join("、") || "チャット";
}
