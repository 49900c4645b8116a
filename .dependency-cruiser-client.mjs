// `npm run lint`: what a client component imports to run goes to the browser, so it must never reach a server module.
// The graph is the bundle's: type imports are erased (tsPreCompilationDeps false), and a server action is a reference
// the browser calls, not code it carries. dependency-cruiser cannot see directives, so the files are found here.
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'

const DIRECTIVE = (name) => new RegExp(`^(\\s*(//[^\\n]*|/\\*[\\s\\S]*?\\*/))*\\s*['"]use ${name}['"]`)

/** The files under app/ and lib/ whose text passes `test`, as one regular expression of their paths. */
function filesWhere(test) {
  const files = ['app', 'lib']
    .flatMap((folder) => readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((name) => `${folder}/${name}`))
    .filter((file) => /\.(ts|tsx|mts)$/.test(file) && !file.startsWith('lib/generated/') && test(readFileSync(file, 'utf8')))
  return files.length === 0 ? '^$' : `^(${files.map((file) => file.replace(/[.[\]()$^+*?{}|\\]/g, '\\$&')).join('|')})$`
}

export default {
  forbidden: [
    {
      name: 'client-not-server',
      comment: 'A client component reaches a server module (marked server-only, or the API’s query schemas): move what it needs to a leaf module.',
      severity: 'error',
      from: { path: filesWhere((text) => DIRECTIVE('client').test(text)) },
      to: { path: [filesWhere((text) => /^import 'server-only'$/m.test(text)), '^lib/places/schemas[.]ts$'], reachable: true },
    },
    {
      name: 'client-not-node',
      comment:
        'A client component reaches a Node module (node:crypto, Buffer…): the bundler then ships a browser copy of it (lib/slugs.ts did: 100 KB gzipped on the editor). Move the Node part to a module of its own.',
      severity: 'error',
      from: { path: filesWhere((text) => DIRECTIVE('client').test(text)) },
      // dependency-cruiser names a core module without its `node:` (crypto, fs/promises).
      to: { path: `^(${builtinModules.filter((name) => !name.startsWith('_')).join('|')})$`, reachable: true },
    },
  ],
  options: {
    exclude: { path: ['^(node_modules|lib/generated)/', filesWhere((text) => DIRECTIVE('server').test(text))] },
    doNotFollow: { path: '^node_modules/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: false,
  },
}
