-- The data version (0001) was bumped by each statement that wrote what the public routes show, an UPDATE of the one
-- row of site_state whose lock it held until its transaction ended: two editors saving different posts, on any
-- instance, waited for each other's whole transaction, and a statement that changed no row bumped it too. Now a
-- write notes that its transaction changed something (pending_commits) and which posts (pending_changes), and at
-- commit a deferred trigger bumps the version once and logs those posts under it (0010's change log): site_state is
-- locked for the commit only, and commits still take versions in their order. BIGINT: a busy site passes 2^31
-- versions in years. The two tables hold rows of transactions not yet committed, and nothing else.
ALTER TABLE "site_state" ALTER COLUMN "data_version" TYPE BIGINT;
ALTER TABLE "place_changes" ALTER COLUMN "version" TYPE BIGINT;

CREATE TABLE "pending_commits" (
    "txid" BIGINT NOT NULL,
    CONSTRAINT "pending_commits_pkey" PRIMARY KEY ("txid")
);
CREATE TABLE "pending_changes" (
    "txid" BIGINT NOT NULL,
    "post_id" INTEGER NOT NULL,
    CONSTRAINT "pending_changes_pkey" PRIMARY KEY ("txid", "post_id")
);

-- This transaction changed what the public routes show: its commit bumps the version (once, whatever the writes).
CREATE FUNCTION "places_note_write"() RETURNS void LANGUAGE sql AS $$
    INSERT INTO "pending_commits" ("txid") VALUES (txid_current()) ON CONFLICT DO NOTHING
$$;

CREATE FUNCTION "places_commit_write"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    made BIGINT;
BEGIN
    UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1 RETURNING "data_version" INTO made;
    WITH logged AS (DELETE FROM "pending_changes" WHERE "txid" = NEW."txid" RETURNING "post_id")
        INSERT INTO "place_changes" ("version", "post_id") SELECT made, "post_id" FROM logged;
    DELETE FROM "pending_commits" WHERE "txid" = NEW."txid";
    DELETE FROM "place_changes" WHERE "version" <= made - 10000;
    RETURN NULL;
END
$$;
-- A constraint trigger may wait for the commit; the one row a transaction notes fires it once.
CREATE CONSTRAINT TRIGGER "pending_commits_commit" AFTER INSERT ON "pending_commits" DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION "places_commit_write"();

-- The change log's statement triggers (0010, 0015) note the posts now, and only for a statement that changed rows.
CREATE OR REPLACE FUNCTION "places_log_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    IF cardinality(touched) = 0 THEN
        RETURN NULL;
    END IF;
    IF cardinality(touched) > 500 THEN
        touched := ARRAY[0];
    END IF;
    INSERT INTO "pending_changes" ("txid", "post_id") SELECT txid_current(), t."id" FROM unnest(touched) AS t("id") ON CONFLICT DO NOTHING;
    PERFORM "places_note_write"();
    RETURN NULL;
END
$$;
-- Their tables' bumps are theirs now.
DROP TRIGGER "posts_bump" ON "posts";
DROP TRIGGER "post_categories_bump" ON "post_categories";
DROP TRIGGER "post_tags_bump" ON "post_tags";

-- The other bumps note the write, a row at a time: a statement that changed no row notes nothing.
CREATE OR REPLACE FUNCTION "places_bump_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM "places_note_write"();
    RETURN NULL;
END
$$;
DROP TRIGGER "categories_bump" ON "categories";
CREATE TRIGGER "categories_bump" AFTER INSERT OR UPDATE OR DELETE ON "categories"
    FOR EACH ROW EXECUTE FUNCTION "places_bump_data_version"();
DROP TRIGGER "site_settings_bump" ON "site_settings";
CREATE TRIGGER "site_settings_bump" AFTER UPDATE ON "site_settings"
    FOR EACH ROW EXECUTE FUNCTION "places_bump_data_version"();
CREATE OR REPLACE FUNCTION "places_bump_if_published_attachment"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    "post" INTEGER;
BEGIN
    IF TG_OP = 'DELETE' THEN "post" := OLD."post_id"; ELSE "post" := NEW."post_id"; END IF;
    IF EXISTS (SELECT 1 FROM "posts" WHERE "id" = "post" AND "status" = 'publish') THEN
        PERFORM "places_note_write"();
    END IF;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION "places_bump_if_published_rendition"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    "attachment" INTEGER;
BEGIN
    IF TG_OP = 'DELETE' THEN "attachment" := OLD."attachment_id"; ELSE "attachment" := NEW."attachment_id"; END IF;
    IF EXISTS (SELECT 1 FROM "attachments" a JOIN "posts" p ON p."id" = a."post_id" WHERE a."id" = "attachment" AND p."status" = 'publish') THEN
        PERFORM "places_note_write"();
    END IF;
    RETURN NULL;
END
$$;
