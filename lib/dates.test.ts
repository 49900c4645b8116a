import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatMinute, offsetMinutes, spanOf, withZoneOffset, zonedDateTime } from './dates'

test('the offset of a zone at an instant, in minutes, summer time included', () => {
  assert.equal(offsetMinutes(new Date('2026-01-15T12:00:00Z'), 'UTC'), 0)
  assert.equal(offsetMinutes(new Date('2026-01-15T12:00:00Z'), 'Asia/Kolkata'), 330)
  assert.equal(offsetMinutes(new Date('2026-01-15T12:00:00Z'), 'Europe/Berlin'), 60)
  assert.equal(offsetMinutes(new Date('2026-07-15T12:00:00Z'), 'Europe/Berlin'), 120)
  assert.equal(offsetMinutes(new Date('2026-01-15T12:00:00Z'), 'America/St_Johns'), -210)
})

test("an instant as the zone's wall clock, and back", () => {
  const instant = new Date('2026-12-31T23:30:15Z')
  assert.equal(zonedDateTime(instant, 'UTC'), '2026-12-31T23:30:15')
  assert.equal(zonedDateTime(instant, 'Asia/Tokyo'), '2027-01-01T08:30:15')
  assert.equal(zonedDateTime(instant, 'America/Los_Angeles'), '2026-12-31T15:30:15')
  assert.equal(formatMinute(instant, 'Asia/Tokyo'), '2027-01-01 08:30 Asia/Tokyo')
  for (const zone of ['UTC', 'Asia/Tokyo', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Chatham']) {
    assert.equal(new Date(withZoneOffset(zonedDateTime(instant, zone), zone)).getTime(), instant.getTime(), zone)
  }
})

test('a wall clock typed without a zone gets the offset the zone has then; anything else is left as it is', () => {
  assert.equal(withZoneOffset('2026-07-01T09:00:00', 'Europe/Berlin'), '2026-07-01T09:00:00+02:00')
  assert.equal(withZoneOffset('2026-01-01T09:00', 'Europe/Berlin'), '2026-01-01T09:00:00+01:00')
  assert.equal(withZoneOffset('2026-01-01', 'America/New_York'), '2026-01-01T00:00:00-05:00')
  assert.equal(withZoneOffset('2026-01-01T09:00:00.250', 'UTC'), '2026-01-01T09:00:00.250+00:00')
  // Either side of the change to summer time in Berlin (02:00 becomes 03:00 on 29 March 2026).
  assert.equal(withZoneOffset('2026-03-29T01:59:59', 'Europe/Berlin'), '2026-03-29T01:59:59+01:00')
  assert.equal(withZoneOffset('2026-03-29T03:00:00', 'Europe/Berlin'), '2026-03-29T03:00:00+02:00')
  // The same west of UTC: New York skips 02:00–03:00 on 8 March 2026, and repeats 01:00–02:00 on 1 November.
  assert.equal(withZoneOffset('2026-03-08T02:30:00', 'America/New_York'), '2026-03-08T02:30:00-05:00')
  assert.equal(withZoneOffset('2026-03-08T03:00:00', 'America/New_York'), '2026-03-08T03:00:00-04:00')
  assert.equal(withZoneOffset('2026-11-01T01:30:00', 'America/New_York'), '2026-11-01T01:30:00-04:00')
  assert.equal(withZoneOffset('2026-11-01T02:00:00', 'America/New_York'), '2026-11-01T02:00:00-05:00')
  for (const other of ['2026-01-01T09:00:00Z', '2026-01-01T09:00:00+05:00', 'yesterday', '']) assert.equal(withZoneOffset(other, 'Asia/Tokyo'), other)
})

test('the milliseconds a date or a date-time names: a whole day in the zone, or an instant', () => {
  const at = (text: string) => Date.parse(text)
  assert.deepEqual(spanOf('2024-05-01', 'UTC'), [at('2024-05-01T00:00:00Z'), at('2024-05-02T00:00:00Z') - 1])
  assert.deepEqual(spanOf('2024-05-01', 'Asia/Tokyo'), [at('2024-04-30T15:00:00Z'), at('2024-05-01T15:00:00Z') - 1])
  // Berlin's day of the change to summer time lasts 23 hours, the day back 25.
  assert.deepEqual(spanOf('2026-03-29', 'Europe/Berlin'), [at('2026-03-28T23:00:00Z'), at('2026-03-29T22:00:00Z') - 1])
  assert.deepEqual(spanOf('2026-10-25', 'Europe/Berlin'), [at('2026-10-24T22:00:00Z'), at('2026-10-25T23:00:00Z') - 1])
  // West of UTC, clocks that skip midnight (Santiago 2019-09-08, Havana 2012-04-01): the day begins when it begins.
  assert.deepEqual(spanOf('2019-09-08', 'America/Santiago'), [at('2019-09-08T04:00:00Z'), at('2019-09-09T03:00:00Z') - 1])
  assert.deepEqual(spanOf('2019-09-07', 'America/Santiago'), [at('2019-09-07T04:00:00Z'), at('2019-09-08T04:00:00Z') - 1])
  assert.deepEqual(spanOf('2012-04-01', 'America/Havana'), [at('2012-04-01T05:00:00Z'), at('2012-04-02T04:00:00Z') - 1])
  // And back (Santiago, 2019-04-07: at midnight, 03:00 UTC, the clock goes back to 23:00 on the 6th).
  assert.deepEqual(spanOf('2019-04-06', 'America/Santiago'), [at('2019-04-06T03:00:00Z'), at('2019-04-07T04:00:00Z') - 1])
  assert.deepEqual(spanOf('0050-01-01', 'UTC'), [Date.parse('0050-01-01T00:00:00Z'), Date.parse('0050-01-02T00:00:00Z') - 1])
  assert.deepEqual(spanOf('9999-12-31', 'UTC'), [at('9999-12-31T00:00:00Z'), at('9999-12-31T23:59:59.999Z')])
  assert.deepEqual(spanOf('2024-05-01T10:00:00Z', 'Asia/Tokyo'), [at('2024-05-01T10:00:00Z'), at('2024-05-01T10:00:00Z')])
  assert.deepEqual(spanOf('2024-05-01T10:00', 'Asia/Tokyo'), [at('2024-05-01T01:00:00Z'), at('2024-05-01T01:00:00Z')])
  assert.deepEqual(spanOf('2024-05-01T10:00:00.250+02:00', 'UTC'), [at('2024-05-01T08:00:00.250Z'), at('2024-05-01T08:00:00.250Z')])
  // Between two milliseconds: none of them.
  assert.deepEqual(spanOf('2024-05-01T10:00:00.2505Z', 'UTC'), [at('2024-05-01T10:00:00.251Z'), at('2024-05-01T10:00:00.250Z')])
  assert.deepEqual(spanOf('2024-05-01T10:00:00.2500Z', 'UTC'), [at('2024-05-01T10:00:00.250Z'), at('2024-05-01T10:00:00.250Z')])
})
