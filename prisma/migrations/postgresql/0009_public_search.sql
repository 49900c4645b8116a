-- The public search (GET /geojson?search=…, docs/api.md): trigram indexes (pg_trgm, shipped with PostgreSQL; a
-- trusted extension, which a database owner may create) of the public places' titles and public addresses, which
-- answer the search's ILIKE '%…%' for three characters or more without a scan of every post.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "posts_public_title_trgm_idx" ON "posts" USING gin ("title" gin_trgm_ops) WHERE "status" = 'publish' AND "public_latitude" IS NOT NULL;
CREATE INDEX "posts_public_address_trgm_idx" ON "posts" USING gin ("public_address" gin_trgm_ops) WHERE "status" = 'publish' AND "public_latitude" IS NOT NULL;
