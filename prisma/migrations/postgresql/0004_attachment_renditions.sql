-- The sizes a page shows of an uploaded image (lib/media/renditions.ts): JPEG and WebP, each under a name made from
-- its bytes, so that the file at a name never changes and a published post's can be cached for good.
CREATE TABLE "attachment_renditions" (
    "id" SERIAL NOT NULL,
    "attachment_id" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "file_name" TEXT NOT NULL,
    CONSTRAINT "attachment_renditions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "attachment_renditions_file_name_key" ON "attachment_renditions"("file_name");
CREATE INDEX "attachment_renditions_attachment_id_idx" ON "attachment_renditions"("attachment_id");
ALTER TABLE "attachment_renditions" ADD CONSTRAINT "attachment_renditions_attachment_id_fkey" FOREIGN KEY ("attachment_id") REFERENCES "attachments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A published post's first photo is part of what the public routes show (`_embed`'s picture): writes to its
-- attachments and their sizes bump the data version too. Those of other posts do not: an upload to a draft leaves
-- every public answer's cache as it is. A row trigger, since which post a row belongs to decides.
CREATE FUNCTION "places_bump_if_published_attachment"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    "post" INTEGER;
BEGIN
    IF TG_OP = 'DELETE' THEN "post" := OLD."post_id"; ELSE "post" := NEW."post_id"; END IF;
    IF EXISTS (SELECT 1 FROM "posts" WHERE "id" = "post" AND "status" = 'publish') THEN
        UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
    END IF;
    RETURN NULL;
END
$$;
CREATE FUNCTION "places_bump_if_published_rendition"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    "attachment" INTEGER;
BEGIN
    IF TG_OP = 'DELETE' THEN "attachment" := OLD."attachment_id"; ELSE "attachment" := NEW."attachment_id"; END IF;
    IF EXISTS (SELECT 1 FROM "attachments" a JOIN "posts" p ON p."id" = a."post_id" WHERE a."id" = "attachment" AND p."status" = 'publish') THEN
        UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER "attachments_bump" AFTER INSERT OR UPDATE OR DELETE ON "attachments"
    FOR EACH ROW EXECUTE FUNCTION "places_bump_if_published_attachment"();
CREATE TRIGGER "attachment_renditions_bump" AFTER INSERT OR DELETE ON "attachment_renditions"
    FOR EACH ROW EXECUTE FUNCTION "places_bump_if_published_rendition"();
