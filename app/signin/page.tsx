import type { Metadata } from 'next'
import { SignInForm } from './_components/sign-in-form'

export const metadata: Metadata = { title: 'Sign in' }

/** Only paths on this site: a sign-in link must not send anyone elsewhere afterwards. */
function safeCallback(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value
  return path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : '/admin'
}

export default async function SignInPage({ searchParams }: PageProps<'/signin'>) {
  const params = await searchParams
  const error = typeof params.error === 'string' ? params.error : undefined
  return (
    <main className="narrow">
      <h1>Sign in</h1>
      <SignInForm callbackUrl={safeCallback(params.callbackUrl)} initialError={error === 'CredentialsSignin' ? 'The email address or password is incorrect.' : error} />
    </main>
  )
}
