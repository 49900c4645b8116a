import Link from 'next/link'
export default function AdminNotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>There is nothing here that you may edit: it does not exist, or your role does not allow it.</p>
      <p>
        <Link href="/admin">Back to the posts</Link>
      </p>
    </>
  )
}
