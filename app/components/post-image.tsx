import type { Post, PostImage as PostImageData } from "~/models/posts.server";

/** A post's picture at its stored size (no layout shift), loaded when it nears the screen unless `eager`. */
export function PostImage({ post, image, className, alt, eager = false }: { post: Post; image: PostImageData; className: string; alt?: string; eager?: boolean }) {
  return (
    <img
      src={image.url}
      width={image.width}
      height={image.height}
      loading={eager ? undefined : "lazy"}
      decoding="async"
      alt={alt ?? `${post.author.displayName}さんの投稿画像`}
      className={className}
    />
  );
}
