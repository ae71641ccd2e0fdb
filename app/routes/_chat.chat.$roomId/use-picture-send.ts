import { lazy, useRef, useState, type ClipboardEvent } from "react";
import { newClientId, type ChatSendBody } from "./chat-outbox";
import type { PictureContext } from "./picture-composer";
import { markWaiting, pendingMessage, withoutWaiting } from "./shown-messages";

/** The picture composer's code (./picture-composer.tsx), fetched the first time a picture is chosen or sent. */
const composer = () => import("./picture-composer");
/** The chosen picture's preview, or a picture being sent with its progress bar (./picture-composer.tsx' PictureView). */
export const PictureView = lazy(() => composer().then((module) => ({ default: module.PictureView })));

type PictureSendOptions = Omit<PictureContext, "fileInput" | "setChosen" | "helpers"> & { viewerId: string; nextLocalId: () => number };

/**
 * Pictures with JavaScript (docs/product.md#chat): the composer's chosen picture (picked, dropped on the picker, or
 * pasted with Ctrl+V), previewed; sent, it shows as 送信中 and ./picture-composer.tsx uploads it with a progress bar and
 * 「キャンセル」, then hands it to the outbox.
 */
export function usePictureSend({ viewerId, nextLocalId, ...options }: PictureSendOptions) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const waiting = (body: ChatSendBody) => pendingMessage(body, nextLocalId(), viewerId, new Date());
  const context: PictureContext = { ...options, fileInput, setChosen, helpers: { newClientId, waiting, markWaiting, withoutWaiting } };
  const use = (then: (module: Awaited<ReturnType<typeof composer>>) => void) => void composer().then(then);
  return {
    fileInput,
    chosen,
    clear: () => use((module) => module.clear(context)),
    sendPicture: (form: HTMLFormElement, file: File, caption: string) => use((module) => module.sendPicture(context, form, file, caption)),
    onFileChange: () => setChosen(fileInput.current?.files?.[0] ?? null),
    /** A pasted image is taken by the form, not by the text field. */
    onPaste: (event: ClipboardEvent) => {
      const file = event.clipboardData.files[0];
      if (!file?.type.startsWith("image/")) return;
      event.preventDefault();
      use((module) => module.choose(context, file));
    },
  };
}
