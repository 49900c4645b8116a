-- The builds servers started with (lib/builds.ts): each start moves its build to a new, higher id, so the highest id
-- is the build the last server started with, whatever the machines' clocks say. Not data: no version bump.
CREATE TABLE "server_builds" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "build_id" TEXT NOT NULL,
    "started_at" DATETIME NOT NULL
);
CREATE UNIQUE INDEX "server_builds_build_id_key" ON "server_builds"("build_id");
