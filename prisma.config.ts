import path from 'node:path'
import { defineConfig } from 'prisma/config'

// Prisma's native schema engine cannot be downloaded on offline machines; generate, validate and format do not
// need it, but the CLI looks for it first. Migrations are ours (lib/db/migrate.ts).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= '/bin/false'

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
})
