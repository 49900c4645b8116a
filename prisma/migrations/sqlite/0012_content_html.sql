-- Content becomes HTML (docs/content.md). Each post's plain text is converted in code after this file, in its
-- transaction (lib/migrate.ts); the admin's folded copy of it is made again from the HTML's text when a server starts
-- (search_text NULL: lib/places/search.ts).
UPDATE "posts" SET "search_text" = NULL WHERE "content" <> '';
