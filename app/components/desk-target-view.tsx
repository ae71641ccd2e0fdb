import * as text from "~/lib/messages/desk";
import type { TargetContent } from "~/models/desk-targets.server";

type Dated<T> = T extends unknown ? Omit<T, "createdAt" | "hiddenAt"> & { createdAt: string; hiddenAt: string | null } : never;
/** A reported item with its dates already in words (the loader's, app/http/desk-view.server.ts). */
export type TargetContentView = Dated<TargetContent>;

/**
 * A reported item on the desk as its viewers saw it (ADR 071): a profile's name, picture and bio; a post's or a
 * chat message's words and picture; a listing's title and description; a review's stars and comment. Text is shown
 * as text (React escapes it), line breaks kept.
 */
export function DeskTargetView({ content }: { content: TargetContentView | null }) {
  if (!content) return <p className="text-slate-600">{text.removed}</p>;
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500">
        {content.createdAt}
        {content.hiddenAt ? <span className="ml-2 font-semibold text-red-800">{text.hiddenAt(content.hiddenAt)}</span> : null}
      </p>
      <Body content={content} />
    </div>
  );
}

function Body({ content }: { content: TargetContentView }) {
  switch (content.kind) {
    case "user":
      return (
        <div className="flex items-start gap-3">
          {content.avatarUrl ? <img src={content.avatarUrl} alt={text.avatarAlt} width={64} height={64} className="size-16 rounded-full object-cover" /> : null}
          <div className="min-w-0">
            <p className="font-bold break-words">{content.displayName}</p>
            <Words value={content.bio} />
          </div>
        </div>
      );
    case "post":
    case "chat_message":
      return (
        <div className="space-y-2">
          {content.picture ? (
            <img
              src={content.picture.src}
              alt={text.pictureAlt}
              width={content.picture.width || undefined}
              height={content.picture.height || undefined}
              data-testid="reported-picture"
              className="h-auto max-h-96 w-auto max-w-full rounded-lg ring-1 ring-slate-200"
            />
          ) : null}
          {content.text || !content.picture ? <Words value={content.text} /> : null}
        </div>
      );
    case "listing":
      return (
        <div>
          <p className="font-bold break-words">{content.title}</p>
          <Words value={content.description} />
        </div>
      );
    case "review":
      return (
        <div>
          <p aria-label={`★${content.rating}`} className="text-amber-700">
            {"★".repeat(content.rating)}
            {"☆".repeat(Math.max(0, 5 - content.rating))}
          </p>
          <Words value={content.comment} />
        </div>
      );
  }
}

function Words({ value }: { value: string }) {
  return <p className="whitespace-pre-wrap break-words">{value || text.noText}</p>;
}
