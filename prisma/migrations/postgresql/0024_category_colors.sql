-- A top-level category's colour on the map, `#rrggbb`, set by an editor (lib/places/category-colors.ts); NULL takes
-- the palette's. Pages and answers show it, so a change bumps the data version as any change of a category does; it
-- moves no place, so it logs no place change.
ALTER TABLE "categories" ADD COLUMN "color" TEXT;
