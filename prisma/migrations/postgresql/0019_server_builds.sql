-- The builds servers started with (lib/builds.ts): a row per start, so the highest id is the build the last server
-- started with, whatever the machines' clocks say; servers starting at once each add theirs. Not data: no version bump.
CREATE TABLE "server_builds" (
    "id" SERIAL NOT NULL,
    "build_id" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "server_builds_pkey" PRIMARY KEY ("id")
);
