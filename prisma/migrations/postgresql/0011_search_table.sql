-- The public search's text in a table of its own (docs/api.md, search): the id, title and public address of every
-- public place, in lower case, with the trigram indexes 0009 put on "posts" (moved here). A trigram index only narrows the search:
-- each row it names is read again to check the text. Rows of "posts" (with every post's content) are wide: at
-- 1,000,000 places a common word read some 30,000 blocks of them, 450 ms; these rows are a tenth of the size. And
-- the text is folded once here, not at each check: the search asks `LIKE lower(pattern)`, which is what ILIKE does
-- (it lowers both sides, by the database's collation), at a third of the cost.
-- Kept by statement triggers, as the change log (0010) is: a post's row is written again only when its title, its
-- public address or whether it is public changed.
-- Other writers wait until the triggers are in place (a write between the copy and them would be missed for good);
-- readers go on, but for a moment at the end, where the old indexes are dropped.
LOCK TABLE "posts" IN SHARE ROW EXCLUSIVE MODE;
CREATE TABLE "posts_search" (
    "id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "public_address" TEXT,
    CONSTRAINT "posts_search_pkey" PRIMARY KEY ("id")
);
INSERT INTO "posts_search" ("id", "title", "public_address")
    SELECT "id", lower("title"), lower("public_address") FROM "posts" WHERE "status" = 'publish' AND "public_latitude" IS NOT NULL;
CREATE INDEX "posts_search_title_trgm_idx" ON "posts_search" USING gin ("title" gin_trgm_ops);
CREATE INDEX "posts_search_public_address_trgm_idx" ON "posts_search" USING gin ("public_address" gin_trgm_ops);

CREATE FUNCTION "places_search_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        TRUNCATE "posts_search";
    ELSIF TG_OP = 'DELETE' THEN
        DELETE FROM "posts_search" s USING "old_rows" o WHERE s."id" = o."id";
    ELSIF TG_OP = 'UPDATE' THEN
        -- The rows of posts no longer public, or whose searched text changed; the others stay as they are.
        DELETE FROM "posts_search" s USING "old_rows" o WHERE s."id" = o."id" AND NOT EXISTS (
            SELECT 1 FROM "new_rows" n WHERE n."id" = o."id" AND n."status" = 'publish' AND n."public_latitude" IS NOT NULL
                AND lower(n."title") = s."title" AND lower(n."public_address") IS NOT DISTINCT FROM s."public_address");
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO "posts_search" ("id", "title", "public_address")
            SELECT "id", lower("title"), lower("public_address") FROM "new_rows" WHERE "status" = 'publish' AND "public_latitude" IS NOT NULL
            ON CONFLICT ("id") DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER "posts_search_insert" AFTER INSERT ON "posts" REFERENCING NEW TABLE AS "new_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_search_follow"();
CREATE TRIGGER "posts_search_update" AFTER UPDATE ON "posts" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_search_follow"();
CREATE TRIGGER "posts_search_delete" AFTER DELETE ON "posts" REFERENCING OLD TABLE AS "old_rows"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_search_follow"();
CREATE TRIGGER "posts_search_truncate" AFTER TRUNCATE ON "posts"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_search_follow"();
ANALYZE "posts_search";
DROP INDEX "posts_public_title_trgm_idx";
DROP INDEX "posts_public_address_trgm_idx";
