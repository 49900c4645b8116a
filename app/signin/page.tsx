import type { Metadata } from 'next'
import { safeCallbackPath } from '@/lib/auth/callback-url'
import { getConfig } from '@/lib/config'
import { SignInForm } from './_components/sign-in-form'

export const metadata: Metadata = { title: 'Sign in' }

// What next-auth's codes in ?error= mean to a person. Only these are shown: the parameter is anyone's to write.
const ERRORS = new Map([
  ['CredentialsSignin', 'The email address or password is incorrect.'],
  ['SessionRequired', 'Please sign in to see that page.'],
])

export default async function SignInPage({ searchParams }: PageProps<'/signin'>) {
  const params = await searchParams
  const error = typeof params.error === 'string' ? (ERRORS.get(params.error) ?? 'Sign-in failed. Please try again.') : undefined
  return (
    <main className="narrow">
      <h1>Sign in</h1>
      <SignInForm callbackUrl={safeCallbackPath(params.callbackUrl, getConfig().siteUrl)} initialError={error} />
    </main>
  )
}
