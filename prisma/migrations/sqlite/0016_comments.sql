-- Comments imported from WordPress (approved ones only), shown read-only under their post (README.md, "From
-- WordPress"). No email or IP address of a commenter is kept. Not part of the public routes' answers: no trigger.
CREATE TABLE "comments" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "post_id" INTEGER NOT NULL,
    "parent_id" INTEGER,
    "author_name" TEXT NOT NULL DEFAULT '',
    "author_url" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL DEFAULT '',
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "comments_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "comments_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "comments" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "comments_post_id_created_at_id_idx" ON "comments"("post_id", "created_at", "id");
CREATE INDEX "comments_parent_id_idx" ON "comments"("parent_id");
