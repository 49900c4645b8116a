-- The change log of the map's index (README.md, "The map's index after a write"): the ids of the posts each write
-- touched, by the data version it made, so that an instance holding an index of version V updates it from the
-- entries after V rather than reading every place again. Post 0 means "anything may have changed" (a category moved
-- or deleted, a bulk import): the index is read again whole. The triggers that bump the version write the entries in
-- the same statement, so no write can bump one without the other; entries 10,000 versions old are pruned, and an
-- instance further behind reads its index again.
CREATE TABLE "place_changes" (
    "version" INTEGER NOT NULL,
    "post_id" INTEGER NOT NULL,
    PRIMARY KEY ("version", "post_id")
) WITHOUT ROWID;
CREATE TRIGGER "place_changes_prune" AFTER INSERT ON "place_changes" BEGIN
  DELETE FROM "place_changes" WHERE "version" <= NEW."version" - 10000;
END;

DROP TRIGGER "posts_bump_insert";
DROP TRIGGER "posts_bump_update";
DROP TRIGGER "posts_bump_delete";
DROP TRIGGER "post_categories_bump_insert";
DROP TRIGGER "post_categories_bump_update";
DROP TRIGGER "post_categories_bump_delete";
DROP TRIGGER "categories_bump_update";
DROP TRIGGER "categories_bump_delete";
CREATE TRIGGER "posts_bump_insert" AFTER INSERT ON "posts" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", NEW."id" FROM "site_state" WHERE "id" = 1;
END;
CREATE TRIGGER "posts_bump_update" AFTER UPDATE ON "posts" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", NEW."id" FROM "site_state" WHERE "id" = 1
    UNION SELECT "data_version", OLD."id" FROM "site_state" WHERE "id" = 1;
END;
CREATE TRIGGER "posts_bump_delete" AFTER DELETE ON "posts" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", OLD."id" FROM "site_state" WHERE "id" = 1;
END;
CREATE TRIGGER "post_categories_bump_insert" AFTER INSERT ON "post_categories" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", NEW."post_id" FROM "site_state" WHERE "id" = 1;
END;
CREATE TRIGGER "post_categories_bump_update" AFTER UPDATE ON "post_categories" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", NEW."post_id" FROM "site_state" WHERE "id" = 1
    UNION SELECT "data_version", OLD."post_id" FROM "site_state" WHERE "id" = 1;
END;
CREATE TRIGGER "post_categories_bump_delete" AFTER DELETE ON "post_categories" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", OLD."post_id" FROM "site_state" WHERE "id" = 1;
END;
-- A category's places are those of its subtree: a category moved or deleted changes which places many indexes hold.
-- (A new category has no places yet; a renamed one holds the same.)
CREATE TRIGGER "categories_bump_update" AFTER UPDATE ON "categories" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", 0 FROM "site_state" WHERE "id" = 1 AND OLD."parent_id" IS NOT NEW."parent_id";
END;
CREATE TRIGGER "categories_bump_delete" AFTER DELETE ON "categories" BEGIN
  UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
  INSERT INTO "place_changes" SELECT "data_version", 0 FROM "site_state" WHERE "id" = 1;
END;
