-- The addresses a post imported from WordPress had there: its permalink's path (`/2020/05/eiffel-tower`, lower case,
-- no trailing slash) and `?p=ID` by its WordPress id. Asked of this site, each answers 301 to the post's page
-- (lib/places/old-slugs.ts), as its old slugs do. Written with their posts, whose triggers bump the data version.
CREATE TABLE "post_old_paths" (
    "path" TEXT NOT NULL,
    "post_id" INTEGER NOT NULL,
    PRIMARY KEY ("path"),
    CONSTRAINT "post_old_paths_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
) WITHOUT ROWID;
CREATE INDEX "post_old_paths_post_id_idx" ON "post_old_paths"("post_id");
