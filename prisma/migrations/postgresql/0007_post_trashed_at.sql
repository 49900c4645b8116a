-- When a post went to the Trash (WordPress's _wp_trash_meta_time): the Trash is emptied of posts there longer than
-- EMPTY_TRASH_DAYS (lib/admin/trash.ts). Posts in the Trash already count from their last change, when they were trashed.
ALTER TABLE "posts" ADD COLUMN "trashed_at" TIMESTAMP(3);
UPDATE "posts" SET "trashed_at" = "modified_at" WHERE "status" = 'trash';
