-- Trips (docs/trips.md): a journey's route and the posts along it. A trip's tracks are kept whole, for placing photos
-- by their time; what the public may see of them (cut at privacy zones, coarsened by the trip's level, simplified) is
-- derived by lib/places/visibility.ts whenever a track, the level or a zone changes, and kept in public_route and
-- public_overview as GeoJSON MultiLineString coordinates (NULL where the public sees no route), with what is said of
-- it (distance, climb, first and last times: of the points the zones leave). south, west, north and east bound the
-- whole tracks, so that a zone's change looks at the trips near it. Pages and answers show trips, so every change
-- bumps the data version; it moves no place, so it logs none.
CREATE TABLE "trips" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'publish',
    "route_precision" TEXT NOT NULL DEFAULT 'exact',
    "started_at" TIMESTAMP(3),
    "ended_at" TIMESTAMP(3),
    "distance_metres" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "climb_metres" DOUBLE PRECISION,
    "public_route" TEXT,
    "public_overview" TEXT,
    "south" DOUBLE PRECISION,
    "west" DOUBLE PRECISION,
    "north" DOUBLE PRECISION,
    "east" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "trips_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "trips_slug_key" ON "trips"("slug");

-- A track's points whole: lib/trips/track.ts packs its columns (latitude, longitude, time, elevation) and segments.
CREATE TABLE "trip_tracks" (
    "id" SERIAL NOT NULL,
    "trip_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL DEFAULT '',
    "point_count" INTEGER NOT NULL,
    "points" BYTEA NOT NULL,
    CONSTRAINT "trip_tracks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "trip_tracks_trip_id_position_idx" ON "trip_tracks"("trip_id", "position");
ALTER TABLE "trip_tracks" ADD CONSTRAINT "trip_tracks_trip_id_fkey" FOREIGN KEY ("trip_id") REFERENCES "trips"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "posts" ADD COLUMN "trip_id" INTEGER;
ALTER TABLE "posts" ADD CONSTRAINT "posts_trip_id_fkey" FOREIGN KEY ("trip_id") REFERENCES "trips"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "posts_trip_id_idx" ON "posts"("trip_id");

CREATE TRIGGER "trips_bump" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "trips"
    FOR EACH STATEMENT EXECUTE FUNCTION "places_bump_data_version"();
