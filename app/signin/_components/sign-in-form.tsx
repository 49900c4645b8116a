'use client'

import { signIn } from 'next-auth/react'
import { useState, type FormEvent } from 'react'

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [error, setError] = useState(initialError)
  const [pending, setPending] = useState(false)

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setPending(true)
    setError(undefined)
    const result = await signIn('credentials', { email: form.get('email'), password: form.get('password'), redirect: false })
    if (result?.ok && !result.error) {
      window.location.assign(callbackUrl)
      return
    }
    setPending(false)
    setError(result?.error === 'CredentialsSignin' ? 'The email address or password is incorrect.' : (result?.error ?? 'Sign-in failed.'))
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="form" aria-describedby={error ? 'sign-in-error' : undefined}>
      <label>
        Email
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the page is this form and nothing else: its first field is where everyone starts */}
        <input name="email" type="email" autoComplete="username" required autoFocus />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && (
        <p id="sign-in-error" role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  )
}
