-- Settings → General: the site's title, tagline, language and time zone (lib/site.ts). One row; NULL is never set, and
-- the default applies (`places import-wxr` fills only these). Pages, feeds and the REST index name the site, so a
-- change bumps the data version that keys their cached answers; it moves no place, so it logs no place change.
CREATE TABLE "site_settings" (
    "id" INTEGER NOT NULL,
    "title" TEXT,
    "tagline" TEXT,
    "language" TEXT,
    "timezone" TEXT,
    CONSTRAINT "site_settings_pkey" PRIMARY KEY ("id")
);
INSERT INTO "site_settings" ("id") VALUES (1);
CREATE TRIGGER "site_settings_bump" AFTER UPDATE ON "site_settings"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_bump_data_version"();
