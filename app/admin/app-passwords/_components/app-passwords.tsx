'use client'

import { useState, useTransition, type FormEvent } from 'react'
import { formatMinute } from '@/lib/dates'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import type { AppPasswordRow } from '@/lib/admin/app-passwords'
import { appPasswordNameSchema } from '@/lib/admin/forms'
import { fieldErrorsOf, type FieldErrors } from '@/lib/http/params'
import { createAppPasswordAction, revokeAppPasswordAction, type CreatedAppPassword } from '../actions'

export function AppPasswords({ email, passwords, timezone }: { email: string; passwords: AppPasswordRow[]; timezone: string }) {
  const when = (iso: string | null) => (iso ? formatMinute(iso, timezone) : 'Never')
  const [name, setName] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [created, setCreated] = useState<CreatedAppPassword>()
  const [message, setMessage] = useState<NoticeValue>()
  const [confirming, setConfirming] = useState<string | null>(null)
  const [pending, startTransition] = useTransition()

  function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = appPasswordNameSchema.safeParse({ name })
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error))
    startTransition(async () => {
      const result = await createAppPasswordAction({ name })
      if (!result.ok) {
        setErrors(result.fieldErrors)
        setMessage({ tone: 'error', text: result.message })
        return
      }
      setCreated(result.data)
      setName('')
      setErrors({})
      setMessage(undefined)
    })
  }

  function revoke(row: AppPasswordRow) {
    setConfirming(null)
    startTransition(async () => {
      const result = await revokeAppPasswordAction(row.uuid)
      setMessage(result.ok ? { tone: 'ok', text: `“${row.name}” was revoked.` } : { tone: 'error', text: result.message })
    })
  }

  return (
    <>
      <form className="admin-form narrow-form" onSubmit={onCreate} noValidate aria-label="New application password">
        <div className="field">
          <label htmlFor="app-password-name">New application password’s name</label>
          <input
            id="app-password-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy('app-password-name', errors.name, 'app-password-hint')}
          />
          <p id="app-password-hint" className="hint">
            Say which program uses it, e.g. “Photo uploader on my laptop”.
          </p>
          <FieldError id="app-password-name" message={errors.name} />
        </div>
        <button type="submit" disabled={pending}>
          Create
        </button>
      </form>

      {created && (
        <div className="new-secret" role="status">
          <p>
            The application password “{created.name}” is{' '}
            <code className="secret" data-testid="new-app-password">
              {created.password}
            </code>
          </p>
          <p>
            <strong>Copy it now</strong> (select it, then Ctrl+C or ⌘C): it will not be shown again. Spaces do not matter. Use it with your email, {email}.
          </p>
        </div>
      )}
      <div aria-live="polite">
        <Notice notice={message} />
      </div>

      <h2>Your application passwords</h2>
      {passwords.length === 0 ? (
        <p className="muted">You have none.</p>
      ) : (
        <table className="post-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {passwords.map((row) => (
              <tr key={row.uuid}>
                <td>{row.name}</td>
                <td>{when(row.createdAt)}</td>
                <td>{when(row.lastUsedAt)}</td>
                <td>
                  {confirming === row.uuid ? (
                    <>
                      <button type="button" className="danger" onClick={() => revoke(row)} disabled={pending}>
                        Revoke for good
                      </button>{' '}
                      <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </>
                  ) : (
                    <button type="button" className="danger" onClick={() => setConfirming(row.uuid)} aria-label={`Revoke “${row.name}”…`}>
                      Revoke…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  )
}
