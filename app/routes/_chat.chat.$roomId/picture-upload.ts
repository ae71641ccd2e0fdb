import { messages } from "~/lib/messages";

/** What POST /api/uploads answers for a chat picture. */
export interface UploadedPicture {
  id: string;
  width: number;
  height: number;
}

/** The person cancelled the upload: nothing to report. */
export class UploadCancelled extends Error {
  constructor() {
    super("cancelled");
    this.name = "UploadCancelled";
  }
}

/**
 * Uploads a chat picture (POST /api/uploads, type chat, the tab's cookies) with XMLHttpRequest, which, unlike fetch,
 * reports the request body's progress: a 3 MB photo on a slow connection takes a minute, and the person sees it move
 * and may cancel it. Loaded only when a picture is sent (the room's first load does not carry it).
 */
export function uploadPicture(file: Blob, onProgress: (fraction: number) => void): { done: Promise<UploadedPicture>; cancel(): void } {
  const request = new XMLHttpRequest();
  const done = new Promise<UploadedPicture>((resolve, reject) => {
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("abort", () => reject(new UploadCancelled()));
    request.addEventListener("error", () => reject(new Error(messages.api.failed)));
    request.addEventListener("load", () => {
      const body = parse(request.responseText);
      if (request.status === 201 && body?.data?.id) return resolve(body.data as UploadedPicture);
      reject(new Error(body?.error?.message ?? messages.api.failed));
    });
  });
  const form = new FormData();
  form.append("type", "chat");
  form.append("file", file);
  request.open("POST", "/api/uploads");
  request.setRequestHeader("Accept", "application/json");
  request.send(form);
  return { done, cancel: () => request.abort() };
}

function parse(text: string): { data?: UploadedPicture; error?: { message?: string } } | null {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
