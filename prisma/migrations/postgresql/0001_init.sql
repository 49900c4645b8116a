-- Places schema, PostgreSQL. Mirrors prisma/schema.prisma (test/db/schema.test.ts compares them).

CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL,
    "password_hash" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

CREATE TABLE "posts" (
    "id" SERIAL NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'post',
    "status" TEXT NOT NULL DEFAULT 'publish',
    "status_before_trash" TEXT,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "published_at" TIMESTAMP(3) NOT NULL,
    "modified_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "author_id" INTEGER NOT NULL,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "address" TEXT NOT NULL DEFAULT '',
    "location_public" BOOLEAN NOT NULL DEFAULT true,
    CONSTRAINT "posts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "posts_geodata_check" CHECK (("latitude" IS NULL) = ("longitude" IS NULL)
        AND "latitude" BETWEEN -90 AND 90 AND "longitude" BETWEEN -180 AND 180)
);
CREATE UNIQUE INDEX "posts_type_slug_key" ON "posts"("type", "slug");
CREATE INDEX "posts_author_id_idx" ON "posts"("author_id");
CREATE INDEX "posts_listing_idx" ON "posts"("type", "status", "published_at" DESC, "id" DESC);
-- The public routes' query (lib/places/query.ts) names this WHERE clause literally, so the planner walks only the
-- places that are shown, newest first, and stops at the page size.
CREATE INDEX "posts_public_places_idx" ON "posts"("type", "published_at" DESC, "id" DESC)
    WHERE "status" = 'publish' AND "latitude" IS NOT NULL AND "longitude" IS NOT NULL AND "location_public" = TRUE;

CREATE TABLE "categories" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "parent_id" INTEGER,
    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "categories_slug_key" ON "categories"("slug");
CREATE INDEX "categories_parent_id_idx" ON "categories"("parent_id");

CREATE TABLE "post_categories" (
    "post_id" INTEGER NOT NULL,
    "category_id" INTEGER NOT NULL,
    CONSTRAINT "post_categories_pkey" PRIMARY KEY ("post_id", "category_id")
);
CREATE INDEX "post_categories_category_id_post_id_idx" ON "post_categories"("category_id", "post_id");

CREATE TABLE "attachments" (
    "id" SERIAL NOT NULL,
    "post_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT NOT NULL DEFAULT '',
    "file_path" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "attachments_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "attachments_file_path_key" ON "attachments"("file_path");
CREATE INDEX "attachments_post_id_position_created_at_id_idx" ON "attachments"("post_id", "position", "created_at", "id");

CREATE TABLE "app_passwords" (
    "id" SERIAL NOT NULL,
    "uuid" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    CONSTRAINT "app_passwords_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "app_passwords_uuid_key" ON "app_passwords"("uuid");
CREATE UNIQUE INDEX "app_passwords_secret_hash_key" ON "app_passwords"("secret_hash");
CREATE INDEX "app_passwords_user_id_idx" ON "app_passwords"("user_id");

CREATE TABLE "site_state" (
    "id" INTEGER NOT NULL,
    "data_version" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "site_state_pkey" PRIMARY KEY ("id")
);
INSERT INTO "site_state" ("id", "data_version") VALUES (1, 1);

ALTER TABLE "posts" ADD CONSTRAINT "posts_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "categories"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "post_categories" ADD CONSTRAINT "post_categories_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "post_categories" ADD CONSTRAINT "post_categories_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "app_passwords" ADD CONSTRAINT "app_passwords_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every write to what the public routes show bumps the data version, whoever writes (app, CLI, SQL shell).
-- The row lock it takes also orders concurrent writers, so a reader never sees data newer than its version's.
CREATE FUNCTION "places_bump_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER "posts_bump" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "posts"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_bump_data_version"();
CREATE TRIGGER "categories_bump" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_bump_data_version"();
CREATE TRIGGER "post_categories_bump" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "post_categories"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_bump_data_version"();
