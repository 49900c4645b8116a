import type { Actor } from './capabilities'

/**
 * Who runs the command line (`places post delete`, `places zone add`, `places locate`) and the Trash's own emptying:
 * the site's operator, who may do anything, as WP-CLI run without --user. The admin and the API pass a signed-in user.
 */
export const OPERATOR = 'operator' as const

/** Who asks for something: a signed-in user, or the operator. */
export type Caller = Actor | typeof OPERATOR
