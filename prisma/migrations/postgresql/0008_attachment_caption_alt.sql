-- A photo's caption and alternative text, as WordPress keeps them (the attachment's excerpt and its
-- _wp_attachment_image_alt meta): a WordPress import carries them over.
ALTER TABLE "attachments" ADD COLUMN "caption" TEXT NOT NULL DEFAULT '';
ALTER TABLE "attachments" ADD COLUMN "alt_text" TEXT NOT NULL DEFAULT '';
