-- A post's excerpt (WordPress's post_excerpt): plain text for descriptions and link previews; empty, the content's
-- first words stand in (README, "Editing a post").
ALTER TABLE "posts" ADD COLUMN "excerpt" TEXT NOT NULL DEFAULT '';
