import type { Metadata } from 'next'
import { SignOutButton } from './_components/sign-out-button'

export const metadata: Metadata = { title: 'Sign out' }

export default function SignOutPage() {
  return (
    <main className="narrow">
      <h1>Sign out</h1>
      <p>Sign out of Places on this browser?</p>
      <SignOutButton />
    </main>
  )
}
