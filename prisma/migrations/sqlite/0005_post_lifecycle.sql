-- The slugs a published post had before (WordPress's _wp_old_slug): /type/old-slug answers 301 to the current URL.
CREATE TABLE "post_old_slugs" (
    "type" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "post_id" INTEGER NOT NULL,

    PRIMARY KEY ("type", "slug"),
    CONSTRAINT "post_old_slugs_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "post_old_slugs_post_id_idx" ON "post_old_slugs"("post_id");

-- Title and address, and content, folded for the admin's accent-insensitive search (lib/admin/search.ts). NULL until
-- the app computes them (a server fills those of rows written by older versions or by hand when it starts).
ALTER TABLE "posts" ADD COLUMN "search_text" TEXT;
ALTER TABLE "posts" ADD COLUMN "search_content" TEXT;
