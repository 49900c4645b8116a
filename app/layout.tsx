import type { Metadata } from 'next'
import { connection } from 'next/server'
import type { ReactNode } from 'react'
import { feedLinks } from '@/lib/places/feed'
import { SITE_DESCRIPTION } from '@/lib/places/oembed'
import './globals.css'

export async function generateMetadata(): Promise<Metadata> {
  return {
    title: { default: 'Places', template: '%s · Places' },
    description: SITE_DESCRIPTION,
    // A page that has alternates of its own names the feed among them: Next.js replaces alternates, never merges them.
    alternates: { types: { 'application/rss+xml': await feedLinks() } },
  }
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: Next.js then puts the request's CSP nonce (proxy.ts) on its scripts. A page
  // prerendered at build time carries no nonce, and the CSP blocks all of its scripts.
  await connection()
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <a href="/" className="site-name">
            Places
          </a>
        </header>
        {children}
      </body>
    </html>
  )
}
