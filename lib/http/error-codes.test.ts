import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { test } from 'node:test'
import { ERROR_STATUS } from './error-codes'
import { forbidden, notSignedIn } from './errors'

const root = new URL('../../', import.meta.url)

test("docs/api.md lists exactly the table's codes, each with its status", () => {
  const docs = readFileSync(new URL('docs/api.md', root), 'utf8')
  const listed = Object.fromEntries([...docs.matchAll(/^\| `(\w+)` +\| (\d{3}) +\|/gm)].map(([, code = '', status]) => [code, Number(status)] as const))
  assert.deepEqual(listed, ERROR_STATUS)
})

test('every code of the table is still used by the source', () => {
  const source = ['lib', 'app', 'bin']
    .flatMap((dir) => readdirSync(new URL(dir, root), { recursive: true, encoding: 'utf8' }).map((file) => `${dir}/${file}`))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|\/generated\/|error-codes\.ts$/.test(file))
    .map((file) => readFileSync(new URL(file, root), 'utf8'))
    .join('\n')
  const unused = Object.keys(ERROR_STATUS).filter((code) => !source.includes(`'${code}'`))
  assert.deepEqual(unused, [])
})

test("rest_forbidden is the table's 403, and 401 to who sent no credentials", () => {
  assert.equal(forbidden().status, 403)
  assert.equal(notSignedIn().status, 401)
  assert.equal(notSignedIn().code, 'rest_forbidden')
})
