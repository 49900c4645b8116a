// Generates the two Prisma clients from the one schema: SQLite (prisma/schema.prisma as written) and PostgreSQL
// (the same models with the provider swapped). One generated client serves one provider; lib/db/ picks one.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'

const source = readFileSync('prisma/schema.prisma', 'utf8')
const postgres = source.replace('provider = "sqlite"', 'provider = "postgresql"').replace('output   = "../lib/generated/sqlite"', 'output   = "./postgresql"')
if (postgres === source || !postgres.includes('"postgresql"') || !postgres.includes('"./postgresql"')) {
  throw new Error('prisma-generate: prisma/schema.prisma no longer has the provider or output lines this script swaps')
}
mkdirSync('lib/generated', { recursive: true })
writeFileSync('lib/generated/schema.postgresql.prisma', `// Generated from prisma/schema.prisma. Do not edit.\n${postgres}`)

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/false',
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
}
for (const schema of ['prisma/schema.prisma', 'lib/generated/schema.postgresql.prisma']) {
  execFileSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate', '--schema', schema], { stdio: 'inherit', env })
}
