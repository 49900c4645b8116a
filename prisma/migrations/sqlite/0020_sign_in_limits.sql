-- Failed sign-ins per account or device (lib/auth/throttle.ts) and per client address (lib/auth/client-limit.ts),
-- kept here so that every instance counts the same failures and a restart forgives none. Times are milliseconds
-- since 1970. Not data: no version bump.
CREATE TABLE "sign_in_failures" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL,
    "at" INTEGER NOT NULL,
    "previous_at" INTEGER NOT NULL
);
CREATE TABLE "sign_in_budgets" (
    "client" TEXT NOT NULL PRIMARY KEY,
    "full_at" INTEGER NOT NULL
);
