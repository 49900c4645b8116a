import type { Metadata } from 'next'
import { connection } from 'next/server'
import type { ReactNode } from 'react'
import { feedLinks } from '@/lib/places/feed'
import { getSiteSettings, siteDescription } from '@/lib/site'
import './globals.css'

export async function generateMetadata(): Promise<Metadata> {
  const settings = await getSiteSettings()
  return {
    title: { default: settings.title, template: `%s · ${settings.title}` },
    description: siteDescription(settings),
    // A page that has alternates of its own names the feed among them: Next.js replaces alternates, never merges them.
    alternates: { types: { 'application/rss+xml': await feedLinks() } },
  }
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: Next.js then puts the request's CSP nonce (proxy.ts) on its scripts. A page
  // prerendered at build time carries no nonce, and the CSP blocks all of its scripts.
  await connection()
  const { title, tagline, language } = await getSiteSettings()
  return (
    <html lang={language}>
      <body>
        <header className="site-header">
          <a href="/" className="site-name">
            {title}
          </a>
          {tagline && <span className="site-tagline">{tagline}</span>}
        </header>
        {children}
      </body>
    </html>
  )
}
