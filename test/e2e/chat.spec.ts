import { createUser, expect, login, test, waitForHydration } from "./fixtures";

test("two people chat live in two browsers", async ({ browser, request }) => {
  const alice = await createUser(request, "アリス");
  const bob = await createUser(request, "ボブ");
  const room = await request.post("/api/chat/rooms", {
    data: { participantIds: [bob.id], type: "DIRECT", name: null },
    headers: { Authorization: `Bearer ${alice.token}` },
  });
  const roomId = (await room.json()).data.chatRoom.id as string;

  const aliceContext = await browser.newContext();
  const bobContext = await browser.newContext();
  const alicePage = await aliceContext.newPage();
  const bobPage = await bobContext.newPage();
  await login(alicePage, alice.email, `/chat/${roomId}`);
  await login(bobPage, bob.email, "/");
  // With the socket connected, messages go over it (`chat:send`), not through the API.
  const apiSends: string[] = [];
  for (const page of [alicePage, bobPage]) {
    page.on("request", (sent) => sent.method() === "POST" && new URL(sent.url()).pathname === "/api/chat/messages" && apiSends.push(sent.url()));
  }
  // Live delivery needs both sockets up (they connect once the session is read after hydration).
  for (const page of [alicePage, bobPage]) {
    await expect(page.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
  }
  // Bob came online after Alice opened the room: his green dot appears live (a `presence` event).
  await expect(alicePage.locator("section[aria-labelledby=room-title] > header").getByRole("img", { name: "オンライン" })).toBeVisible();

  // Alice writes; it shows for her at once and for Bob live, with a popup since he is not in the room.
  await alicePage.getByLabel("メッセージ", { exact: true }).fill("今夜APEXやりませんか？");
  await alicePage.getByRole("button", { name: "送信" }).click();
  await expect(alicePage.getByRole("list", { name: "メッセージ一覧" })).toContainText("今夜APEXやりませんか？");
  const popup = bobPage.getByRole("status").filter({ hasText: "今夜APEXやりませんか？" });
  await expect(popup).toBeVisible();
  await expect(popup).toContainText("アリス");
  await expect(bobPage.getByRole("banner").getByTestId("unread-chat-count")).toHaveText(/1/);
  await popup.getByRole("button").click();
  await expect(bobPage).toHaveURL(`/chat/${roomId}`);
  await expect(bobPage.getByRole("list", { name: "メッセージ一覧" })).toContainText("今夜APEXやりませんか？");

  // Inside the room, Bob's reply arrives live for Alice, and no popup shows in the open room.
  await waitForHydration(bobPage);
  await expect(bobPage.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
  await bobPage.getByLabel("メッセージ", { exact: true }).fill("いいね、21時に！");
  await bobPage.getByRole("button", { name: "送信" }).click();
  await expect(alicePage.getByRole("list", { name: "メッセージ一覧" })).toContainText("いいね、21時に！");
  await expect(alicePage.getByRole("status").filter({ hasText: "いいね、21時に！" })).toHaveCount(0);
  expect(apiSends).toEqual([]);
  // The sender's own copy is the stored one (its id from the acknowledgement), so a reload shows the same list.
  await alicePage.reload();
  await expect(alicePage.getByRole("list", { name: "メッセージ一覧" }).getByRole("listitem")).toHaveCount(2);

  await aliceContext.close();
  await bobContext.close();
});

test("a message whose answer is lost waits as 送信中, goes again after the reconnect, and is stored once", async ({ page, request }) => {
  const me = await createUser(request, "わたし");
  const friend = await createUser(request, "ともだち");
  const room = await request.post("/api/chat/rooms", {
    data: { participantIds: [friend.id], type: "DIRECT", name: null },
    headers: { Authorization: `Bearer ${me.token}` },
  });
  const roomId = (await room.json()).data.chatRoom.id as string;
  // The socket's WebSocket goes through the test: once upgraded, what the server says about the message (its
  // `chat:message` event, then the acknowledgement) is dropped and the connection cut at the acknowledgement, as a
  // replica dying after the commit would (ADR 051).
  let upgraded = false;
  let cut = false;
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (message === "5") upgraded = true; // engine.io's upgrade packet: from now on everything goes this way
      server.send(message);
    });
    server.onMessage((message) => {
      if (!cut && upgraded && String(message).includes("届いたかな？")) {
        if (!String(message).includes('"status":201')) return; // the event: lost
        cut = true;
        void ws.close();
        void server.close();
        return;
      }
      ws.send(message);
    });
  });
  await login(page, me.email, `/chat/${roomId}`);
  await expect(page.locator("[data-realtime-state]")).toHaveAttribute("data-realtime-state", "connected");
  await expect.poll(() => upgraded).toBe(true);

  await page.getByLabel("メッセージ", { exact: true }).fill("届いたかな？");
  await page.getByRole("button", { name: "送信" }).click();
  const list = page.getByRole("list", { name: "メッセージ一覧" });
  // Stored, but the answer was lost: it waits as 送信中 while the socket reconnects, then the retry is answered.
  await expect(list.locator("[data-sending]")).toContainText("送信中");
  await expect.poll(() => cut).toBe(true);
  await expect(list.locator("[data-sending]")).toHaveCount(0);
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("届いたかな？");
  await expect(page.getByRole("alert")).toHaveCount(0);
  const stored = await request.get(`/api/chat/messages?roomId=${roomId}`, { headers: { Authorization: `Bearer ${friend.token}` } });
  expect((await stored.json()).data.messages.map((message: { content: string }) => message.content)).toEqual(["届いたかな？"]);
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the room can be read and written to", async ({ page, request }) => {
    const me = await createUser(request, "わたし");
    const friend = await createUser(request, "ともだち");
    const room = await request.post("/api/chat/rooms", {
      data: { participantIds: [me.id], type: "DIRECT", name: null },
      headers: { Authorization: `Bearer ${friend.token}` },
    });
    const roomId = (await room.json()).data.chatRoom.id as string;
    await request.post("/api/chat/messages", {
      data: { roomId, content: "JSなしでも読める？", messageType: "TEXT", metadata: null },
      headers: { Authorization: `Bearer ${friend.token}` },
    });

    await login(page, me.email, "/chat");
    await expect(page.getByLabel("未読1件")).toBeVisible();
    await page.getByRole("link", { name: /ともだち/ }).click();
    await expect(page.getByRole("list", { name: "メッセージ一覧" })).toContainText("JSなしでも読める？");
    await page.getByLabel("メッセージ", { exact: true }).fill("読めるし書ける！");
    await page.getByRole("button", { name: "送信" }).click();
    await expect(page).toHaveURL(`/chat/${roomId}`);
    await expect(page.getByRole("list", { name: "メッセージ一覧" })).toContainText("読めるし書ける！");
  });
});
