import { z } from 'zod'
import { latitudeSchema, longitudeSchema } from '../api/contract'
import { roundCoordinate } from '../geo/precision'
import { LOCATION_PRECISIONS } from '../places/location-levels'
import { excerptSchema, isoDateSchema, NO_NUL, NO_NUL_MESSAGE, postTypeSchema, STATUSES, tagNamesSchema } from '../places/post-fields'

// The admin's input schemas. Browser code checks a form with them before sending it; the server actions parse
// what arrives with the same ones (nothing a browser sends is trusted). No server-only imports here.

export const idSchema = z.number().int().positive().max(2_147_483_647)

/** A coordinate typed into a text field: empty for none, else a number within `range`, kept to 7 decimals. */
function coordinateField(range: z.ZodNumber, bounds: string) {
  return z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === '') return null
      const value = Number(text)
      if (!Number.isFinite(value)) {
        ctx.addIssue({ code: 'custom', message: 'must be a number, e.g. 48.8584' })
        return z.NEVER
      }
      if (!range.safeParse(value).success) {
        ctx.addIssue({ code: 'custom', message: `must be between ${bounds}` })
        return z.NEVER
      }
      return roundCoordinate(value)
    })
}

/** A latitude or longitude field as typed: null when empty. */
export const latitudeFieldSchema = coordinateField(latitudeSchema, '-90 and 90')
export const longitudeFieldSchema = coordinateField(longitudeSchema, '-180 and 180')

export const titleSchema = z.string().trim().min(1, 'is required').max(1000, 'must be at most 1000 characters').regex(NO_NUL, NO_NUL_MESSAGE)

export const newPostSchema = z.object({ title: titleSchema, type: postTypeSchema })
export type NewPostValues = z.input<typeof newPostSchema>

export const postFormSchema = z
  .object({
    title: titleSchema,
    content: z.string().max(200_000, 'must be at most 200,000 characters').regex(NO_NUL, NO_NUL_MESSAGE),
    excerpt: excerptSchema,
    status: z.enum(STATUSES, { error: `must be one of ${STATUSES.join(', ')}` }),
    type: postTypeSchema,
    /** empty: made from the title */
    slug: z.string().trim().max(190, 'must be at most 190 characters'),
    date: isoDateSchema,
    categoryIds: z.array(idSchema).max(500),
    /** paths of categories to create where missing, such as "Europe > France" */
    newCategories: z.array(z.string().trim().min(1).max(1000)).max(50),
    /** by name: the missing ones are created (lib/places/tags.ts) */
    tags: tagNamesSchema,
    address: z.string().trim().max(1000, 'must be at most 1000 characters').regex(NO_NUL, NO_NUL_MESSAGE),
    locationPrecision: z.enum(LOCATION_PRECISIONS, { error: `must be one of ${LOCATION_PRECISIONS.join(', ')}` }),
    latitude: latitudeFieldSchema,
    longitude: longitudeFieldSchema,
    /** the trip the post was written on (docs/trips.md); null: none; left out: unchanged */
    tripId: idSchema.nullable().optional(),
  })
  .superRefine((post, ctx) => {
    // A post has a location when it has both, and none when it has neither (prisma/schema.prisma).
    if (post.latitude === null && post.longitude !== null) ctx.addIssue({ code: 'custom', path: ['latitude'], message: 'is required with a longitude' })
    if (post.longitude === null && post.latitude !== null) ctx.addIssue({ code: 'custom', path: ['longitude'], message: 'is required with a latitude' })
  })

export type PostFormValues = z.input<typeof postFormSchema>
export type PostInput = z.output<typeof postFormSchema>

export const attachmentTitleSchema = z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters')

/** A photo's caption and alt text, as WordPress's: plain text, shown under the photo and read out in its place. */
export const attachmentTextSchema = z.object({
  caption: z.string().trim().max(1000, 'must be at most 1000 characters').regex(NO_NUL, NO_NUL_MESSAGE),
  altText: z.string().trim().max(1000, 'must be at most 1000 characters').regex(NO_NUL, NO_NUL_MESSAGE),
})

export const appPasswordNameSchema = z.object({ name: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters') })
