-- Tags, as WordPress's post_tag: flat, named, each post any number of them (README.md, "Tags"). A post's tags change
-- which places a tag's map holds, so post_tags bumps the data version and logs its posts as post_categories does
-- (0001, 0010). A tag deleted deletes its links, and their triggers log the posts; a tag renamed holds the same places.
CREATE TABLE "tags" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "tags_slug_key" ON "tags"("slug");

CREATE TABLE "post_tags" (
    "post_id" INTEGER NOT NULL,
    "tag_id" INTEGER NOT NULL,
    CONSTRAINT "post_tags_pkey" PRIMARY KEY ("post_id", "tag_id")
);
CREATE INDEX "post_tags_tag_id_post_id_idx" ON "post_tags"("tag_id", "post_id");
ALTER TABLE "post_tags" ADD CONSTRAINT "post_tags_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "post_tags" ADD CONSTRAINT "post_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TRIGGER "post_tags_bump" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "post_tags"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_bump_data_version"();
CREATE TRIGGER "post_tags_changes_insert" AFTER INSERT ON "post_tags" REFERENCING NEW TABLE AS "new_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "post_tags_changes_update" AFTER UPDATE ON "post_tags" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "post_tags_changes_delete" AFTER DELETE ON "post_tags" REFERENCING OLD TABLE AS "old_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
CREATE TRIGGER "post_tags_changes_truncate" AFTER TRUNCATE ON "post_tags"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_log_changes"();
