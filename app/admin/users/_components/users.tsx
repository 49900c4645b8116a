'use client'

import { useState, useTransition, type FormEvent } from 'react'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import type { FieldErrors } from '@/lib/http/params'
import type { UserRow } from '@/lib/admin/users'
import { addUserAction, changeRoleAction } from '../actions'

type Props = { users: UserRow[]; roles: string[]; currentUserId: number }

function RoleForm({ user, roles, isMe, onDone }: { user: UserRow; roles: string[]; isMe: boolean; onDone: (ok: boolean, text: string) => void }) {
  const [role, setRole] = useState(user.role)
  const [pending, startTransition] = useTransition()
  const id = `role-${user.id}`
  return (
    <form
      className="inline"
      onSubmit={(event) => {
        event.preventDefault()
        startTransition(async () => {
          const result = await changeRoleAction(user.id, role)
          if (!result.ok) setRole(user.role)
          onDone(result.ok, result.ok ? `${user.email} is now ${role}.` : result.message)
        })
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Role of {user.email}
      </label>
      <select id={id} value={role} onChange={(e) => setRole(e.target.value)}>
        {roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <button type="submit" className="secondary" disabled={pending || role === user.role} aria-label={`Change the role of ${user.email}`}>
        Change role
      </button>
      {isMe && <span className="muted"> (you)</span>}
    </form>
  )
}

export function Users({ users, roles, currentUserId }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [message, setMessage] = useState<NoticeValue>()
  const [pending, startTransition] = useTransition()
  const [formKey, setFormKey] = useState(0)

  function onAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const values = Object.fromEntries(new FormData(event.currentTarget))
    startTransition(async () => {
      const result = await addUserAction(values)
      if (!result.ok) {
        setErrors(result.fieldErrors)
        setMessage({ tone: 'error', text: result.message })
        return
      }
      setErrors({})
      setMessage({ tone: 'ok', text: `${typeof values.email === 'string' ? values.email.toLowerCase() : ''} was added.` })
      setFormKey((k) => k + 1)
    })
  }

  const field = (name: string) => ({
    id: `user-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(`user-${name}`, errors[name]),
  })

  return (
    <>
      <div aria-live="polite">
        <Notice notice={message} />
      </div>
      <table className="post-table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Name</th>
            <th scope="col">Posts</th>
            <th scope="col">Added</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td>
                {user.email}
                {!user.hasPassword && <span className="muted"> (cannot sign in)</span>}
              </td>
              <td>{user.name}</td>
              <td>{user.postCount}</td>
              <td>{user.createdAt.slice(0, 10)}</td>
              <td>
                <RoleForm
                  key={`${user.id}:${user.role}`}
                  user={user}
                  roles={roles}
                  isMe={user.id === currentUserId}
                  onDone={(ok, text) => setMessage({ tone: ok ? 'ok' : 'error', text })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Add a user</h2>
      <form key={formKey} className="admin-form narrow-form" onSubmit={onAdd} noValidate aria-label="Add a user">
        <div className="field">
          <label htmlFor="user-email">Email</label>
          <input {...field('email')} type="email" autoComplete="off" required />
          <FieldError id="user-email" message={errors.email} />
        </div>
        <div className="field">
          <label htmlFor="user-name">Name</label>
          <input {...field('name')} autoComplete="off" />
          <FieldError id="user-name" message={errors.name} />
        </div>
        <div className="field">
          <label htmlFor="user-password">Password</label>
          <input {...field('password')} type="password" autoComplete="new-password" required />
          <FieldError id="user-password" message={errors.password} />
        </div>
        <div className="field">
          <label htmlFor="user-role">Role</label>
          <select {...field('role')} defaultValue="author">
            {roles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
          <FieldError id="user-role" message={errors.role} />
        </div>
        <button type="submit" disabled={pending}>
          Add user
        </button>
      </form>
    </>
  )
}
