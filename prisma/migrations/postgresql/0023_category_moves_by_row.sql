-- A category moved or deleted changes which places many indexes hold (0010): the change log says "anything" (post
-- 0), and every instance reads its map's index again whole. 0010's statement trigger said so for every UPDATE that
-- named parent_id, even one that moved nothing (a category saved with the parent it had, or no row matched): on a
-- site of a million places, renaming a category in the admin cost each instance a whole read. SQLite's row triggers
-- did not. Row triggers now, as SQLite's: a category whose parent changed, or one deleted.
DROP TRIGGER "categories_changes" ON "categories";
CREATE TRIGGER "categories_changes_update" AFTER UPDATE OF "parent_id" ON "categories"
    FOR EACH ROW WHEN (OLD."parent_id" IS DISTINCT FROM NEW."parent_id") EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "categories_changes_delete" AFTER DELETE ON "categories"
    FOR EACH ROW EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "categories_changes_truncate" AFTER TRUNCATE ON "categories"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
