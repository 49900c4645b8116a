-- The sizes a page shows of an uploaded image (lib/media/renditions.ts): JPEG and WebP, each under a name made from
-- its bytes, so that the file at a name never changes and a published post's can be cached for good.
CREATE TABLE "attachment_renditions" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "attachment_id" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "file_name" TEXT NOT NULL,
    CONSTRAINT "attachment_renditions_attachment_id_fkey" FOREIGN KEY ("attachment_id") REFERENCES "attachments" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "attachment_renditions_file_name_key" ON "attachment_renditions"("file_name");
CREATE INDEX "attachment_renditions_attachment_id_idx" ON "attachment_renditions"("attachment_id");

-- A published post's first photo is part of what the public routes show (`_embed`'s picture): writes to its
-- attachments and their sizes bump the data version too. Those of other posts do not: an upload to a draft leaves
-- every public answer's cache as it is.
CREATE TRIGGER "attachments_bump_insert" AFTER INSERT ON "attachments"
    WHEN EXISTS (SELECT 1 FROM "posts" WHERE "id" = NEW."post_id" AND "status" = 'publish')
    BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "attachments_bump_update" AFTER UPDATE ON "attachments"
    WHEN EXISTS (SELECT 1 FROM "posts" WHERE "id" IN (OLD."post_id", NEW."post_id") AND "status" = 'publish')
    BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "attachments_bump_delete" AFTER DELETE ON "attachments"
    WHEN EXISTS (SELECT 1 FROM "posts" WHERE "id" = OLD."post_id" AND "status" = 'publish')
    BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "attachment_renditions_bump_insert" AFTER INSERT ON "attachment_renditions"
    WHEN EXISTS (SELECT 1 FROM "attachments" a JOIN "posts" p ON p."id" = a."post_id" WHERE a."id" = NEW."attachment_id" AND p."status" = 'publish')
    BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "attachment_renditions_bump_delete" AFTER DELETE ON "attachment_renditions"
    WHEN EXISTS (SELECT 1 FROM "attachments" a JOIN "posts" p ON p."id" = a."post_id" WHERE a."id" = OLD."attachment_id" AND p."status" = 'publish')
    BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
