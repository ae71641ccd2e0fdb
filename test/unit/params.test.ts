import { expect, it } from "vitest";
import { z } from "zod";
import { parseParams } from "~/lib/params";

const schema = z.object({ roomId: z.string().uuid() });

it("returns the parsed params when they fit", () => {
  const roomId = "3f1c4f8e-1b2a-4c3d-8e9f-0a1b2c3d4e5f";
  expect(parseParams(schema, { roomId }, new Request(`http://x/chat/${roomId}`))).toEqual({ roomId });
});

it("throws a fatal 404 `Page Not Found: {path}` when they do not", async () => {
  let thrown: unknown;
  try {
    parseParams(schema, { roomId: "nope" }, new Request("http://x/chat/nope?a=1"));
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(Response);
  const response = thrown as Response;
  expect(response.status).toBe(404);
  expect(await response.text()).toBe("Page Not Found: /chat/nope");
});
