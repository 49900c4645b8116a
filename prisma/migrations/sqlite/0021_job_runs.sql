-- When each periodic job last began (lib/jobs.ts): instances sharing the database claim a run here, so that each
-- job runs once a period on one of them. Milliseconds since 1970, by the database's clock. Not data: no version bump.
CREATE TABLE "job_runs" (
    "job" TEXT NOT NULL PRIMARY KEY,
    "started_at" INTEGER NOT NULL
);
