import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import {
  canCreatePosts,
  canExport,
  canManageCategories,
  canImport,
  canManageSettings,
  canManageTrips,
  canManageUsers,
  canManageZones,
} from '@/lib/auth/capabilities'
import { getSessionActor } from '@/lib/admin/session'
import { getSiteSettings } from '@/lib/site'
import { signOutEverywhereAction } from './actions'
import './admin.css'

export async function generateMetadata(): Promise<Metadata> {
  return { title: { default: 'Admin', template: `%s · Admin · ${(await getSiteSettings()).title}` }, robots: { index: false } }
}

// The admin's frame. It only shows the menu: each page asks for the signed-in user itself (and sends a visitor
// to sign in), and lib/admin decides what they may see and do.
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const actor = await getSessionActor()
  return (
    // The admin speaks English whatever the posts' language (the site's setting, on <html>).
    <div className="admin" lang="en">
      {actor && (
        <nav className="admin-nav" aria-label="Admin">
          <ul>
            <li>
              <a href="/admin">Posts</a>
            </li>
            {canCreatePosts(actor) && (
              <li>
                <a href="/admin/posts/new">New post</a>
              </li>
            )}
            <li>
              <a href="/admin/app-passwords">Application passwords</a>
            </li>
            {canManageCategories(actor) && (
              <li>
                <a href="/admin/categories">Categories</a>
              </li>
            )}
            {canManageTrips(actor) && (
              <li>
                <a href="/admin/trips">Trips</a>
              </li>
            )}
            {canManageUsers(actor) && (
              <li>
                <a href="/admin/users">Users</a>
              </li>
            )}
            {canManageZones(actor) && (
              <li>
                <a href="/admin/zones">Privacy zones</a>
              </li>
            )}
            {canManageSettings(actor) && (
              <li>
                <a href="/admin/settings">Settings</a>
              </li>
            )}
            {canImport(actor) && (
              <li>
                <a href="/admin/import">Import</a>
              </li>
            )}
            {canExport(actor) && (
              <li>
                <a href="/admin/export">Export</a>
              </li>
            )}
          </ul>
          <div className="admin-who">
            {actor.name || actor.email} <span className="admin-role">({actor.role})</span> · <a href="/signout">Sign out</a> ·{' '}
            <form action={signOutEverywhereAction}>
              <button type="submit" className="link-button" title="Ends your sessions in every browser; application passwords keep working">
                Sign out everywhere
              </button>
            </form>
          </div>
        </nav>
      )}
      <main className="admin-main">{children}</main>
    </div>
  )
}
