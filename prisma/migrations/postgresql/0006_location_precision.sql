-- Location privacy levels (docs/privacy.md). A post's own level replaces the public/private flag (geo_public: false
-- is hidden), and the location the public may see is kept beside the exact one, derived by lib/places/visibility.ts
-- whenever the location, its level or a privacy zone changes: every public read takes these columns and never the
-- exact ones, so a coarsened place cannot be found by its exact point (a bbox, a cluster, a search by address).
ALTER TABLE "posts" ADD COLUMN "location_precision" TEXT NOT NULL DEFAULT 'exact'
    CHECK ("location_precision" IN ('exact', 'approximate', 'city', 'hidden'));
ALTER TABLE "posts" ADD COLUMN "public_latitude" DOUBLE PRECISION;
ALTER TABLE "posts" ADD COLUMN "public_longitude" DOUBLE PRECISION;
ALTER TABLE "posts" ADD COLUMN "public_address" TEXT NOT NULL DEFAULT '';

-- Before this there were two levels and no zones: exact (public) shows the location as it is, hidden nothing.
UPDATE "posts" SET
    "location_precision" = CASE WHEN "location_public" THEN 'exact' ELSE 'hidden' END,
    "public_latitude" = CASE WHEN "location_public" THEN "latitude" END,
    "public_longitude" = CASE WHEN "location_public" THEN "longitude" END,
    "public_address" = CASE WHEN "location_public" THEN "address" ELSE '' END;

DROP INDEX "posts_public_places_idx";
ALTER TABLE "posts" DROP COLUMN "location_public";
-- The public routes' query (lib/places/query.ts) names this WHERE clause literally (lib/places/visibility.ts).
CREATE INDEX "posts_public_places_idx" ON "posts"("type", "published_at" DESC, "id" DESC)
    WHERE "status" = 'publish' AND "public_latitude" IS NOT NULL;

-- Circles (a home, a school) inside which every post is shown at least as coarsely as the zone's level.
CREATE TABLE "privacy_zones" (
    "id" SERIAL NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL DEFAULT '',
    "latitude" DOUBLE PRECISION NOT NULL CHECK ("latitude" BETWEEN -90 AND 90),
    "longitude" DOUBLE PRECISION NOT NULL CHECK ("longitude" BETWEEN -180 AND 180),
    "radius_metres" INTEGER NOT NULL CHECK ("radius_metres" > 0),
    "level" TEXT NOT NULL CHECK ("level" IN ('approximate', 'city', 'hidden')),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
