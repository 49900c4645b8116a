// `npm run lint`'s import rules over all the code, types included (dependency-cruiser reads TypeScript and the
// tsconfig paths in plain JS). What client components may import is checked apart: .dependency-cruiser-client.mjs.
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle of imports, type imports too: break it with a small leaf module that both sides import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-not-admin',
      comment: 'lib/admin serves the admin screens; the domain, the HTTP layer and the command line’s lib never import it.',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/admin/' },
      to: { path: '^lib/admin/' },
    },
  ],
  options: {
    exclude: { path: '^(node_modules|lib/generated)/' },
    doNotFollow: { path: '^node_modules/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
}
