import { useEffect, useRef, useState, type ClipboardEvent, type Dispatch, type DragEvent, type SetStateAction } from "react";
import { newClientId, type ChatSendBody } from "./chat-outbox";
import type { UploadedPicture } from "./picture-upload";
import { pendingMessage, withoutWaiting, type ShownMessage } from "./shown-messages";

interface PictureSendOptions {
  roomId: string;
  viewerId: string;
  nextLocalId: () => number;
  setShown: Dispatch<SetStateAction<ShownMessage[]>>;
  /** Hands the message to the outbox (retry-safe by its client id) once the picture is uploaded. */
  sendBody: (body: ChatSendBody) => Promise<void>;
  setSendError: (message: string | null) => void;
}

/** The first image among dropped or pasted files. */
const imageOf = (files: FileList | null | undefined) => Array.from(files ?? []).find((file) => file.type.startsWith("image/")) ?? null;

/**
 * Pictures with JavaScript (docs/product.md#chat): the composer's chosen picture (picked, pasted with Ctrl+V or dropped)
 * with its preview; sending it shows the message at once as 送信中 with the picture, an upload progress bar and a
 * cancel button, then hands it to the outbox like a text. The uploader (./picture-upload.ts) is loaded when used.
 */
export function usePictureSend({ roomId, viewerId, nextLocalId, setShown, sendBody, setSendError }: PictureSendOptions) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  const uploads = useRef(new Map<string, () => void>());

  // The preview's object URL is let go when another picture is chosen, or none, or the room is left.
  useEffect(
    () => () => {
      if (chosen) URL.revokeObjectURL(chosen.url);
    },
    [chosen],
  );

  const choose = (file: File | null) => setChosen(file ? { file, url: URL.createObjectURL(file) } : null);

  /** Puts a pasted or dropped picture into the form's file input too, so what is shown is what the form holds. */
  const take = (file: File | null) => {
    if (!file) return false;
    if (fileInput.current) {
      const transfer = new DataTransfer();
      transfer.items.add(file);
      fileInput.current.files = transfer.files;
    }
    choose(file);
    return true;
  };

  const clear = () => {
    if (fileInput.current) fileInput.current.value = "";
    choose(null);
  };

  const patch = (clientId: string, change: Partial<ShownMessage>) =>
    setShown((current) => current.map((message) => (message.clientId === clientId && message.id < 0 ? { ...message, ...change } : message)));

  /** Sends the chosen picture with the composer's text as its caption. */
  const sendPicture = async (file: File, caption: string) => {
    const clientId = newClientId();
    const preview = URL.createObjectURL(file);
    const metadata = caption ? { caption } : null;
    const shell: ChatSendBody = { roomId, clientId, content: "", messageType: "IMAGE", metadata };
    setShown((current) => [...current, { ...pendingMessage(shell, nextLocalId(), viewerId, new Date()), preview, progress: 0 }]);
    clear();
    let picture: UploadedPicture;
    try {
      const { uploadPicture, UploadCancelled } = await import("./picture-upload");
      const upload = uploadPicture(file, (progress) => patch(clientId, { progress }));
      uploads.current.set(clientId, upload.cancel);
      picture = await upload.done.catch((error: unknown) => {
        if (!(error instanceof UploadCancelled)) setSendError(error instanceof Error ? error.message : null);
        throw error;
      });
    } catch {
      setShown((current) => withoutWaiting(current, clientId));
      URL.revokeObjectURL(preview);
      return;
    } finally {
      uploads.current.delete(clientId);
    }
    patch(clientId, { progress: 1, content: picture.id, metadata: { ...metadata, width: picture.width, height: picture.height } });
    await sendBody({ ...shell, content: picture.id });
    URL.revokeObjectURL(preview);
  };

  return {
    fileInput,
    chosen,
    sendPicture,
    cancelUpload: (clientId: string | undefined) => clientId && uploads.current.get(clientId)?.(),
    clear,
    onFileChange: () => choose(fileInput.current?.files?.[0] ?? null),
    onPaste: (event: ClipboardEvent) => {
      if (take(imageOf(event.clipboardData.files))) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      if (take(imageOf(event.dataTransfer.files))) event.preventDefault();
    },
    onDragOver: (event: DragEvent) => {
      if (Array.from(event.dataTransfer.items).some((item) => item.kind === "file")) event.preventDefault();
    },
  };
}
