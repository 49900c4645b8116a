-- Where a photo's point came from: 'gps', its file's EXIF GPS, read when it was stored; 'track', placed by the time it
-- was taken on a GPS track (`places locate --from-track`, docs/trips.md). NULL for a photo without a point.
ALTER TABLE "attachments" ADD COLUMN "location_source" TEXT;
UPDATE "attachments" SET "location_source" = 'gps' WHERE "latitude" IS NOT NULL;
