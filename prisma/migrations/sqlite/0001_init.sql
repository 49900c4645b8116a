-- Places schema, SQLite. Mirrors prisma/schema.prisma (test/db/schema.test.ts compares them).

CREATE TABLE "users" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL,
    "password_hash" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

CREATE TABLE "posts" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "type" TEXT NOT NULL DEFAULT 'post',
    "status" TEXT NOT NULL DEFAULT 'publish',
    "status_before_trash" TEXT,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "published_at" DATETIME NOT NULL,
    "modified_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "author_id" INTEGER NOT NULL,
    "latitude" REAL,
    "longitude" REAL,
    "address" TEXT NOT NULL DEFAULT '',
    "location_public" BOOLEAN NOT NULL DEFAULT true,
    CONSTRAINT "posts_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
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
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "parent_id" INTEGER,
    CONSTRAINT "categories_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "categories" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "categories_slug_key" ON "categories"("slug");
CREATE INDEX "categories_parent_id_idx" ON "categories"("parent_id");

CREATE TABLE "post_categories" (
    "post_id" INTEGER NOT NULL,
    "category_id" INTEGER NOT NULL,
    PRIMARY KEY ("post_id", "category_id"),
    CONSTRAINT "post_categories_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "post_categories_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "post_categories_category_id_post_id_idx" ON "post_categories"("category_id", "post_id");

CREATE TABLE "attachments" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "post_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT NOT NULL DEFAULT '',
    "file_path" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "latitude" REAL,
    "longitude" REAL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "attachments_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "attachments_file_path_key" ON "attachments"("file_path");
CREATE INDEX "attachments_post_id_position_created_at_id_idx" ON "attachments"("post_id", "position", "created_at", "id");

CREATE TABLE "app_passwords" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "uuid" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" DATETIME,
    CONSTRAINT "app_passwords_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "app_passwords_uuid_key" ON "app_passwords"("uuid");
CREATE UNIQUE INDEX "app_passwords_secret_hash_key" ON "app_passwords"("secret_hash");
CREATE INDEX "app_passwords_user_id_idx" ON "app_passwords"("user_id");

CREATE TABLE "site_state" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "data_version" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "site_state" ("id", "data_version") VALUES (1, 1);

-- Every write to what the public routes show bumps the data version, whoever writes (app, CLI, SQL shell).
CREATE TRIGGER "posts_bump_insert" AFTER INSERT ON "posts" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "posts_bump_update" AFTER UPDATE ON "posts" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "posts_bump_delete" AFTER DELETE ON "posts" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "categories_bump_insert" AFTER INSERT ON "categories" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "categories_bump_update" AFTER UPDATE ON "categories" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "categories_bump_delete" AFTER DELETE ON "categories" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "post_categories_bump_insert" AFTER INSERT ON "post_categories" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "post_categories_bump_update" AFTER UPDATE ON "post_categories" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "post_categories_bump_delete" AFTER DELETE ON "post_categories" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
