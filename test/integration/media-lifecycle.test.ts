import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../app/infra/db";
import { createImageStorage, localPrivateUploadsDir, type ImageStorage } from "../../app/infra/storage";
import { leaveAccount } from "../../app/models/account.server";
import { mediaRemovalJob } from "../../app/models/media-removal.server";
import { readMediaForOperator } from "../../app/models/media.server";
import { hideReported } from "../../app/models/moderation.server";
import { restoreBackup, takeBackup } from "../../server/db/backup";
import { runModerationCommand } from "../../server/moderation-command";
import { createBrowserMember, createMember, type Member } from "../support/auth";
import { createTestDatabase, testEngine } from "../support/database";
import { TEST_OPERATOR } from "../support/operators";
import { serverWithSockets } from "../support/sockets";

/**
 * Pictures leave the store with what showed them (ADR 070), on whichever engine the run uses: a chat message the
 * operators hide and an account that closes (退会) take their pictures (full and small) out of the database in their
 * transaction and off the store after the commit; /media answers 404 from then on, the message keeps its caption and
 * says the picture was removed. A removal the store refuses stays queued and the sweeper finishes it. Operators see a
 * reported picture (`npm run moderation -- show`, readMediaForOperator).
 */

const server = serverWithSockets({ seed: false });
const db = () => server.app.database.db;
const storage = () => createImageStorage(server.app.config);
const privateDir = () => localPrivateUploadsDir(server.app.config);

const photo = (width: number, height: number, background = "#2266cc") => sharp({ create: { width, height, channels: 3, background } }).jpeg().toBuffer();

async function uploadPicture(member: Member, width = 900, background?: string) {
  const form = new FormData();
  form.append("type", "chat");
  form.append("file", new Blob([new Uint8Array(await photo(width, 600, background))], { type: "image/jpeg" }), "shot.jpg");
  const response = await server.app.request("/api/uploads", { method: "POST", body: form, headers: { Authorization: `Bearer ${member.token}` } });
  expect(response.status).toBe(201);
  return (await response.json()).data.id as string;
}

async function roomWithPicture(sender: Member, other: Member, caption: string, background?: string) {
  const room = await sender.api("/api/chat/rooms", { json: { participantIds: [other.id], type: "DIRECT", name: null } });
  const roomId = (await room.json()).data.chatRoom.id as string;
  const uploadId = await uploadPicture(sender, 900, background);
  const sent = await sender.api("/api/chat/messages", { json: { roomId, messageType: "IMAGE", content: uploadId, metadata: { caption } } });
  expect(sent.status).toBe(201);
  return { roomId, uploadId, messageId: String((await sent.json()).data.message.id) };
}

/** The private files of an upload, full and small, from its row. */
async function filesOf(uploadId: string) {
  const row = await db().selectFrom("uploads").select(["url", "variant_url"]).where("id", "=", uploadId).executeTakeFirstOrThrow();
  return [row.url, row.variant_url!].map((reference) => path.join(privateDir(), reference.slice("private:".length)));
}

const media = (pathname: string, member: Member) => server.app.request(pathname, { headers: { Authorization: `Bearer ${member.token}` } });

async function reportMessage(reporter: Member, messageId: string) {
  const reported = await reporter.api("/api/reports", { json: { targetType: "chat_message", targetId: messageId, reason: "harassment" } });
  expect(reported.status).toBe(201);
  return (await reported.json()).data.report.id as number;
}

describe(`a hidden chat message's picture (${testEngine})`, () => {
  it("the operator's show gives a way to view it; hide removes it (row, full and small file), /media 404 for everyone, the caption stays; other pictures stay", async () => {
    const [alice, bob] = await Promise.all([createBrowserMember(server.app, "アリス"), createBrowserMember(server.app, "ボブ")]);
    const { roomId, uploadId, messageId } = await roomWithPicture(alice, bob, "ひどい画像");
    const kept = await roomWithPicture(alice, bob, "残る画像", "#33aa55");
    const files = await filesOf(uploadId);
    const keptFiles = await filesOf(kept.uploadId);
    expect(files.every((file) => fs.existsSync(file))).toBe(true);
    const reportId = await reportMessage(bob, messageId);

    // What the operators read: a path, the size, and on the local disk the file to open.
    expect(await readMediaForOperator({ db: db(), storage: storage(), config: server.app.config, reportId })).toEqual({
      uploadId,
      path: `/media/${uploadId}`,
      contentType: "image/jpeg",
      width: 900,
      height: 600,
      viewUrl: null,
      file: files[0],
    });
    const lines: string[] = [];
    const io = { db: db(), out: (line: string) => lines.push(line), err: (line: string) => lines.push(`ERR ${line}`), operator: TEST_OPERATOR, media: { storage: storage(), config: server.app.config } };
    expect(await runModerationCommand(["show", String(reportId)], io)).toBe(0);
    expect(lines).toContain(`  画像: /media/${uploadId}（900×600、image/jpeg）`);
    expect(lines).toContain(`  ファイル: ${files[0]}`);

    lines.length = 0;
    expect(await runModerationCommand(["hide", String(reportId), "--reason", "嫌がらせの画像"], io)).toBe(0);
    expect(lines.join("\n")).toContain("非表示にしました");

    expect(files.some((file) => fs.existsSync(file))).toBe(false);
    expect(await db().selectFrom("uploads").select("id").where("id", "=", uploadId).execute()).toEqual([]);
    expect(await db().selectFrom("media_removals").select("id").execute()).toEqual([]);
    for (const member of [alice, bob]) {
      expect((await media(`/media/${uploadId}`, member)).status).toBe(404);
      expect((await media(`/media/${uploadId}/small`, member)).status).toBe(404);
    }
    const message = await db().selectFrom("chat_messages").select(["upload_id", "message_type", "content", "metadata", "hidden_at"]).where("id", "=", Number(messageId)).executeTakeFirstOrThrow();
    expect(message).toMatchObject({ upload_id: null, message_type: "TEXT", content: "この画像は削除されました\nひどい画像", metadata: { caption: "ひどい画像", removed: true }, hidden_at: expect.any(Date) });
    // Its sender still sees the message, saying the picture is gone, not a broken image.
    const page = await (await alice.page(`/chat/${roomId}`)).text();
    expect(page).toContain("この画像は削除されました");
    expect(page).not.toContain(`/media/${uploadId}`);
    // show on the report now names no picture.
    lines.length = 0;
    await runModerationCommand(["show", String(reportId)], io);
    expect(lines.some((line) => line.startsWith("  画像:"))).toBe(false);

    // The other picture is untouched.
    expect(keptFiles.every((file) => fs.existsSync(file))).toBe(true);
    expect((await media(`/media/${kept.uploadId}`, bob)).status).toBe(200);
  });

  it("a store that fails the removal: the database is consistent at once (404, row gone), the object stays queued and the sweeper removes it", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const { uploadId, messageId } = await roomWithPicture(alice, bob, "消える画像", "#aa2222");
    const files = await filesOf(uploadId);
    const reportId = await reportMessage(bob, messageId);
    const real = storage();
    const unreachable: ImageStorage = { ...real, remove: async () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:9")) };
    await hideReported({ db: db(), operator: TEST_OPERATOR, reportId, reason: "不適切", storage: unreachable });

    expect((await media(`/media/${uploadId}`, alice)).status).toBe(404);
    expect(await db().selectFrom("uploads").select("id").where("id", "=", uploadId).execute()).toEqual([]);
    const queued = await db().selectFrom("media_removals").select(["url", "reason", "attempts", "last_error"]).orderBy("id").execute();
    expect(queued).toEqual(
      files.map((file) => ({ url: `private:${path.relative(privateDir(), file).split(path.sep).join("/")}`, reason: "hidden", attempts: 1, last_error: "connect ECONNREFUSED 127.0.0.1:9" })),
    );
    expect(files.every((file) => fs.existsSync(file))).toBe(true);

    expect(await mediaRemovalJob(real).run({ db: db() })).toBe(2);
    expect(files.some((file) => fs.existsSync(file))).toBe(false);
    expect(await db().selectFrom("media_removals").select("id").execute()).toEqual([]);
  });
});

describe(`an account that closes (退会, ${testEngine})`, () => {
  it("takes its chat pictures, sent and unsent, off the store; the other member's room says the picture was removed, /media 404", async () => {
    const [alice, bob] = await Promise.all([createBrowserMember(server.app, "アリス"), createBrowserMember(server.app, "ボブ")]);
    const { roomId, uploadId } = await roomWithPicture(alice, bob, "退会前の画像", "#123456");
    const unsent = await uploadPicture(alice, 300, "#654321");
    const files = [...(await filesOf(uploadId)), ...(await filesOf(unsent))];
    const bobs = await roomWithPicture(bob, alice, "ボブの画像", "#777777");
    const bobsFiles = await filesOf(bobs.uploadId);

    await leaveAccount({ db: db(), storage: storage(), userId: alice.id });

    expect(files.some((file) => fs.existsSync(file))).toBe(false);
    expect(await db().selectFrom("uploads").select("id").where("owner_id", "=", alice.id).execute()).toEqual([]);
    expect(await db().selectFrom("media_removals").select("id").execute()).toEqual([]);
    expect((await media(`/media/${uploadId}`, bob)).status).toBe(404);
    const page = await (await bob.page(`/chat/${roomId}`)).text();
    expect(page).toContain("この画像は削除されました");
    expect(page).toContain("退会前の画像");
    // What the others sent stays theirs.
    expect(bobsFiles.every((file) => fs.existsSync(file))).toBe(true);
    expect((await media(`/media/${bobs.uploadId}`, bob)).status).toBe(200);
  });
});

describe("a backup after a removal (postgres)", () => {
  it.runIf(testEngine === "postgres")("carries what remains: the kept picture's files and rows, not the removed one's; restored, the room says it was removed", async () => {
    const [alice, bob] = await Promise.all([createMember(server.app, "アリス"), createMember(server.app, "ボブ")]);
    const gone = await roomWithPicture(alice, bob, "消す画像", "#112233");
    const kept = await roomWithPicture(bob, alice, "残す画像", "#445566");
    const goneFiles = (await filesOf(gone.uploadId)).map((file) => path.relative(server.app.config.DATA_DIR, file));
    const keptFiles = (await filesOf(kept.uploadId)).map((file) => path.relative(server.app.config.DATA_DIR, file));
    const reportId = await reportMessage(bob, gone.messageId);
    await hideReported({ db: db(), operator: TEST_OPERATOR, reportId, reason: "不適切", storage: storage() });

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gm-media-backup-"));
    const target = await createTestDatabase({ engine: "postgres", migrate: false });
    try {
      const file = path.join(dir, "backup.tar.gz");
      await takeBackup({ dataDir: server.app.config.DATA_DIR, databaseUrl: server.app.database.url!, file, out: () => {} });
      const restoredDir = path.join(dir, "restored");
      const { ok } = await restoreBackup({ dataDir: restoredDir, databaseUrl: target.url!, file, out: () => {} });
      expect(ok).toBe(true);
      for (const file of keptFiles) expect(fs.existsSync(path.join(restoredDir, file)), file).toBe(true);
      for (const file of goneFiles) expect(fs.existsSync(path.join(restoredDir, file)), file).toBe(false);
      const restored = await openDatabase({ url: target.url! });
      try {
        expect(await restored.db.selectFrom("uploads").select("id").where("id", "in", [gone.uploadId, kept.uploadId]).execute()).toEqual([{ id: kept.uploadId }]);
        const message = await restored.db.selectFrom("chat_messages").select(["upload_id", "metadata"]).where("id", "=", Number(gone.messageId)).executeTakeFirstOrThrow();
        expect(message).toMatchObject({ upload_id: null, metadata: { removed: true, caption: "消す画像" } });
      } finally {
        await restored.close();
      }
    } finally {
      await target.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the placeholder", () => {
  it("a picture's dominant colour is stored at upload and sent with its message", async () => {
    const [alice, bob] = await Promise.all([createBrowserMember(server.app, "アリス"), createBrowserMember(server.app, "ボブ")]);
    const { roomId, uploadId } = await roomWithPicture(alice, bob, "色つき", "#ff0000");
    const { placeholder } = await db().selectFrom("uploads").select("placeholder").where("id", "=", uploadId).executeTakeFirstOrThrow();
    expect(placeholder).toMatch(/^#f[0-9a-f]0[0-9a-f]0[0-9a-f]$/);
    const listed = await (await bob.api(`/api/chat/messages?roomId=${roomId}`)).json();
    expect(listed.data.messages).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ placeholder }) })]);
  });
});
