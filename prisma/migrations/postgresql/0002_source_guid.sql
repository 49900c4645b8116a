-- WordPress GUIDs of imported posts and attachments (places import-wxr): an export imported twice is imported once.
ALTER TABLE "posts" ADD COLUMN "source_guid" TEXT;
CREATE UNIQUE INDEX "posts_source_guid_key" ON "posts"("source_guid");
ALTER TABLE "attachments" ADD COLUMN "source_guid" TEXT;
CREATE UNIQUE INDEX "attachments_source_guid_key" ON "attachments"("source_guid");
