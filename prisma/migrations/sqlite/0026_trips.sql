-- Trips (docs/trips.md): a journey's route and the posts along it. A trip's tracks are kept whole, for placing photos
-- by their time; what the public may see of them (cut at privacy zones, coarsened by the trip's level, simplified) is
-- derived by lib/places/visibility.ts whenever a track, the level or a zone changes, and kept in public_route and
-- public_overview as GeoJSON MultiLineString coordinates (NULL where the public sees no route), with what is said of
-- it (distance, climb, first and last times: of the points the zones leave). south, west, north and east bound the
-- whole tracks, so that a zone's change looks at the trips near it. Pages and answers show trips, so every change
-- bumps the data version; it moves no place, so it logs none.
CREATE TABLE "trips" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'publish',
    "route_precision" TEXT NOT NULL DEFAULT 'exact',
    "started_at" DATETIME,
    "ended_at" DATETIME,
    "distance_metres" REAL NOT NULL DEFAULT 0,
    "climb_metres" REAL,
    "public_route" TEXT,
    "public_overview" TEXT,
    "south" REAL,
    "west" REAL,
    "north" REAL,
    "east" REAL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "modified_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "trips_slug_key" ON "trips"("slug");

-- A track's points whole: lib/trips/track.ts packs its columns (latitude, longitude, time, elevation) and segments.
CREATE TABLE "trip_tracks" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "trip_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL DEFAULT '',
    "point_count" INTEGER NOT NULL,
    "points" BLOB NOT NULL,
    CONSTRAINT "trip_tracks_trip_id_fkey" FOREIGN KEY ("trip_id") REFERENCES "trips" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "trip_tracks_trip_id_position_idx" ON "trip_tracks"("trip_id", "position");

ALTER TABLE "posts" ADD COLUMN "trip_id" INTEGER REFERENCES "trips" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "posts_trip_id_idx" ON "posts"("trip_id");

CREATE TRIGGER "trips_bump_insert" AFTER INSERT ON "trips" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "trips_bump_update" AFTER UPDATE ON "trips" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "trips_bump_delete" AFTER DELETE ON "trips" BEGIN UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1; END;
