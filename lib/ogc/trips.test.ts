import assert from 'node:assert/strict'
import { test } from 'node:test'
import { routeMeets } from './trips'

// The OGC API's bbox on the collection of lines: a trip is in a box its route meets, not merely its route's box.

test('a route meets a box it crosses, though no point of it is inside; a box beside a bend, inside the box of the route, it does not', () => {
  const diagonal: [number, number][][] = [
    [
      [0, 0],
      [10, 10],
    ],
  ]
  assert.equal(routeMeets([4, 4, 6, 6], diagonal), true)
  assert.equal(routeMeets([8, 0, 10, 2], diagonal), false)
  assert.equal(routeMeets([10, 10, 12, 12], diagonal), true, 'an end on the edge meets it')
  const bend: [number, number][][] = [
    [
      [0, 0],
      [0, 10],
      [10, 10],
    ],
  ]
  assert.equal(routeMeets([4, 4, 6, 6], bend), false)
  assert.equal(routeMeets([-1, 4, 1, 6], bend), true, 'a vertical step')
})

test('a box across the antimeridian meets a route cut on it, on either side', () => {
  const east: [number, number][][] = [
    [
      [179.5, -16.8],
      [180, -16.85],
    ],
  ]
  const west: [number, number][][] = [
    [
      [-180, -16.85],
      [-179.5, -16.9],
    ],
  ]
  for (const route of [east, west]) assert.equal(routeMeets([179, -17, -179, -16], route), true)
  assert.equal(
    routeMeets(
      [179, -17, -179, -16],
      [
        [
          [10, -16.5],
          [11, -16.5],
        ],
      ],
    ),
    false,
  )
  assert.equal(routeMeets([-20, -17, -10, -16], west), false)
})
