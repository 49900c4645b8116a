-- Tags, as WordPress's post_tag: flat, named, each post any number of them (README.md, "Tags"). A post's tags change
-- which places a tag's map holds, so post_tags bumps the data version and logs its posts as post_categories does
-- (0010). A tag deleted deletes its links, and their triggers log the posts; a tag renamed holds the same places.
CREATE TABLE "tags" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL
);
CREATE UNIQUE INDEX "tags_slug_key" ON "tags"("slug");

CREATE TABLE "post_tags" (
    "post_id" INTEGER NOT NULL,
    "tag_id" INTEGER NOT NULL,
    PRIMARY KEY ("post_id", "tag_id"),
    CONSTRAINT "post_tags_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "post_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags" ("id") ON DELETE CASCADE ON UPDATE CASCADE
) WITHOUT ROWID;
CREATE INDEX "post_tags_tag_id_post_id_idx" ON "post_tags"("tag_id", "post_id");

CREATE TRIGGER "post_tags_bump_insert" AFTER INSERT ON "post_tags" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", NEW."post_id" FROM "site_state" WHERE "id" = 1;
END;
CREATE TRIGGER "post_tags_bump_update" AFTER UPDATE ON "post_tags" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", NEW."post_id" FROM "site_state" WHERE "id" = 1
    UNION SELECT "data_version", OLD."post_id" FROM "site_state" WHERE "id" = 1;
END;
CREATE TRIGGER "post_tags_bump_delete" AFTER DELETE ON "post_tags" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", OLD."post_id" FROM "site_state" WHERE "id" = 1;
END;
