-- The public search (GET /geojson?search=…, docs/api.md): every post's title and public address in a trigram index,
-- so that a search for three characters or more is a lookup, not a scan of every post. An FTS5 table over the posts'
-- own columns (external content: it keeps only the index), kept up to date by the triggers below.
CREATE VIRTUAL TABLE "posts_search" USING fts5("title", "public_address", content = 'posts', content_rowid = 'id', tokenize = 'trigram');
INSERT INTO "posts_search"("posts_search") VALUES ('rebuild');
CREATE TRIGGER "posts_search_insert" AFTER INSERT ON "posts" BEGIN
  INSERT INTO "posts_search"("rowid", "title", "public_address") VALUES (new."id", new."title", new."public_address");
END;
CREATE TRIGGER "posts_search_delete" AFTER DELETE ON "posts" BEGIN
  INSERT INTO "posts_search"("posts_search", "rowid", "title", "public_address") VALUES ('delete', old."id", old."title", old."public_address");
END;
CREATE TRIGGER "posts_search_update" AFTER UPDATE OF "id", "title", "public_address" ON "posts" BEGIN
  INSERT INTO "posts_search"("posts_search", "rowid", "title", "public_address") VALUES ('delete', old."id", old."title", old."public_address");
  INSERT INTO "posts_search"("rowid", "title", "public_address") VALUES (new."id", new."title", new."public_address");
END;
