export default function AdminNotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>There is nothing here that you may edit: it does not exist, or your role does not allow it.</p>
      <p>
        <a href="/admin">Back to the posts</a>
      </p>
    </>
  )
}
