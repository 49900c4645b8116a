import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import './globals.css'

export const metadata: Metadata = {
  title: { default: 'Places', template: '%s · Places' },
  description: 'Geotagged posts on a map',
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <a href="/" className="site-name">Places</a>
        </header>
        {children}
      </body>
    </html>
  )
}
