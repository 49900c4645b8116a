-- A value in every session (JWT) of a user, checked on every request; renewing it ends all of them at once
-- (a password change, "Sign out everywhere"). Random, so that a database made anew with the same AUTH_SECRET does
-- not honour sessions made for the users of the old one. New users get theirs from the Prisma client (uuid()).
ALTER TABLE "users" ADD COLUMN "session_version" TEXT NOT NULL DEFAULT '';
UPDATE "users" SET "session_version" = lower(hex(randomblob(16)));
