-- The change log of the map's index (README.md, "The map's index after a write"): the ids of the posts each write
-- touched, by the data version it made, so that an instance holding an index of version V updates it from the
-- entries after V rather than reading every place again. Post 0 means "anything may have changed" (a category moved
-- or deleted, a statement of more than 500 posts, a TRUNCATE): the index is read again whole. Entries 10,000
-- versions old are pruned, and an instance further behind reads its index again.
CREATE TABLE "place_changes" (
    "version" INTEGER NOT NULL,
    "post_id" INTEGER NOT NULL,
    CONSTRAINT "place_changes_pkey" PRIMARY KEY ("version", "post_id")
);

-- Statement triggers, as the version's bump (0001): each reads the statement's rows from its transition tables. They
-- run after the bump ("posts_bump" sorts before "posts_changes_…", and PostgreSQL fires triggers in the order of their
-- names), so an entry carries the version its write made.
CREATE FUNCTION "places_log_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    touched integer[];
BEGIN
    IF TG_TABLE_NAME = 'categories' OR TG_OP = 'TRUNCATE' THEN
        touched := ARRAY[0];
    ELSIF TG_TABLE_NAME = 'posts' AND TG_OP = 'INSERT' THEN
        touched := ARRAY(SELECT "id" FROM "new_rows" LIMIT 501);
    ELSIF TG_TABLE_NAME = 'posts' AND TG_OP = 'DELETE' THEN
        touched := ARRAY(SELECT "id" FROM "old_rows" LIMIT 501);
    ELSIF TG_TABLE_NAME = 'posts' THEN
        touched := ARRAY(SELECT "id" FROM "new_rows" UNION SELECT "id" FROM "old_rows" LIMIT 501);
    ELSIF TG_OP = 'INSERT' THEN
        touched := ARRAY(SELECT DISTINCT "post_id" FROM "new_rows" LIMIT 501);
    ELSIF TG_OP = 'DELETE' THEN
        touched := ARRAY(SELECT DISTINCT "post_id" FROM "old_rows" LIMIT 501);
    ELSE
        touched := ARRAY(SELECT "post_id" FROM "new_rows" UNION SELECT "post_id" FROM "old_rows" LIMIT 501);
    END IF;
    IF cardinality(touched) > 500 THEN
        touched := ARRAY[0];
    END IF;
    INSERT INTO "place_changes" ("version", "post_id")
        SELECT s."data_version", t."id" FROM "site_state" s, unnest(touched) AS t("id") WHERE s."id" = 1
        ON CONFLICT DO NOTHING;
    DELETE FROM "place_changes" WHERE "version" <= (SELECT "data_version" FROM "site_state" WHERE "id" = 1) - 10000;
    RETURN NULL;
END
$$;
CREATE TRIGGER "posts_changes_insert" AFTER INSERT ON "posts" REFERENCING NEW TABLE AS "new_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "posts_changes_update" AFTER UPDATE ON "posts" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "posts_changes_delete" AFTER DELETE ON "posts" REFERENCING OLD TABLE AS "old_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "posts_changes_truncate" AFTER TRUNCATE ON "posts"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "post_categories_changes_insert" AFTER INSERT ON "post_categories" REFERENCING NEW TABLE AS "new_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "post_categories_changes_update" AFTER UPDATE ON "post_categories" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "post_categories_changes_delete" AFTER DELETE ON "post_categories" REFERENCING OLD TABLE AS "old_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "post_categories_changes_truncate" AFTER TRUNCATE ON "post_categories"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
-- A category's places are those of its subtree: a category moved or deleted changes which places many indexes hold.
-- (A new category has no places yet; a renamed one holds the same.)
CREATE TRIGGER "categories_changes" AFTER UPDATE OF "parent_id" OR DELETE OR TRUNCATE ON "categories"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
