/** How the admin names each post status, as WordPress's screens do. */
export const STATUS_LABELS: Record<string, string> = {
  publish: 'Published',
  future: 'Scheduled',
  draft: 'Draft',
  pending: 'Pending review',
  private: 'Private',
  trash: 'Trash',
}
