import { useRevalidator } from "@remix-run/react";
import { createContext, lazy, Suspense, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { DialogLink } from "./dialog-link";

/** Told to pages when the viewer published a post from the dialog: lists of posts reload. */
export const POST_CREATED_EVENT = "gm:post-created";

interface PostDialogState {
  /** Opens the dialog, with a community already chosen when given (a community page's 「このコミュニティに投稿」). */
  openPostDialog(options?: { communityId?: string }): void;
}

const PostDialogContext = createContext<PostDialogState>({ openPostDialog: () => {} });
export const usePostDialog = () => useContext(PostDialogContext);

// The dialog's code loads the first time it opens, not with every page.
const PostDialog = lazy(() => import("./post-dialog-body"));

/** The new post dialog (the global overlay of docs/product.md#screens). */
export function PostDialogProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<false | { communityId?: string }>(false);
  const value = useMemo(() => ({ openPostDialog: (options: { communityId?: string } = {}) => setOpen(options) }), []);
  return (
    <PostDialogContext.Provider value={value}>
      {children}
      {open ? (
        <Suspense fallback={null}>
          <PostDialog initialCommunityId={open.communityId ?? null} onClose={() => setOpen(false)} onCreated={() => window.dispatchEvent(new Event(POST_CREATED_EVENT))} />
        </Suspense>
      ) : null}
    </PostDialogContext.Provider>
  );
}

/** A link to the new post page that, once JavaScript runs, opens the dialog instead (into `community` when given). */
export function NewPostLink({ className, children, community }: { className: string; children: ReactNode; community?: { id: string; slug: string } }) {
  const { openPostDialog } = usePostDialog();
  const to = community ? `/posts/new?${new URLSearchParams({ community: community.slug })}` : "/posts/new";
  return (
    <DialogLink to={to} onOpen={() => openPostDialog({ communityId: community?.id })} className={className}>
      {children}
    </DialogLink>
  );
}

/** Reloads the page's data when the viewer publishes a post from the dialog. */
export function useReloadOnNewPost() {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    window.addEventListener(POST_CREATED_EVENT, revalidate);
    return () => window.removeEventListener(POST_CREATED_EVENT, revalidate);
  }, [revalidate]);
}
