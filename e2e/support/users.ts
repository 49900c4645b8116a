/** The users of the `ui` project's server (scripts/e2e-server.mts, E2E_DATASET=ui): one of every role. */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const
export type Role = (typeof ROLES)[number]

export function uiUser(role: Role): { email: string; password: string } {
  return { email: `${role}@e2e.test`, password: `e2e-${role}-password` }
}
