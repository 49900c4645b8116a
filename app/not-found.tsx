import type { Metadata } from 'next'

export const metadata: Metadata = { title: 'Not found' }

// What a visitor sees at an address with nothing behind it: a post that does not exist or is not public.
export default function NotFound() {
  return (
    <main>
      <h1>Not found</h1>
      <p>There is nothing here: the page does not exist, or is not public.</p>
      <p>
        <a href="/">Back to the map</a>
      </p>
    </main>
  )
}
