'use client'

import { signOut } from 'next-auth/react'
import { clearAutosaves } from '@/app/admin/posts/[id]/_components/unsaved-work'

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => {
        clearAutosaves()
        void signOut({ callbackUrl: '/' })
      }}
    >
      Sign out
    </button>
  )
}
