-- A post as one user's editor held it when they pressed Preview, unsaved (lib/admin/preview.ts). No trigger: nothing
-- the public sees depends on it.
CREATE TABLE "post_previews" (
    "post_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "published_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_previews_pkey" PRIMARY KEY ("post_id", "user_id"),
    CONSTRAINT "post_previews_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "post_previews_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "post_previews_user_id_idx" ON "post_previews"("user_id");
