import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DEVICE_COOKIE_MAX_AGE_SECONDS, deviceCookieKey, issueDeviceCookie, readDeviceCookie } from './device-cookie'
import { accountKey } from './throttle'

const key = deviceCookieKey('a-secret-of-at-least-thirty-two-characters')
const owner = accountKey('owner@example.test')
const other = accountKey('other@example.test')

test('a device cookie names its account and device, and is good for that account only', () => {
  const cookie = issueDeviceCookie(owner, key)
  assert.ok(!cookie.includes('owner'), 'the email is not in it')
  const device = readDeviceCookie(cookie, owner, key)
  assert.match(device ?? '', /^[\w-]{16}$/)
  assert.equal(readDeviceCookie(cookie, other, key), null, 'another account')
  assert.equal(readDeviceCookie(issueDeviceCookie(owner, key, device), owner, key), device, 'renewed, the device stays')
  assert.notEqual(readDeviceCookie(issueDeviceCookie(owner, key), owner, key), device, 'a new device is another')
})

test('a forged, altered, foreign or expired cookie counts for nothing', () => {
  const now = Date.UTC(2026, 0, 1)
  const cookie = issueDeviceCookie(owner, key, null, now)
  const [account, device, issued, signature] = cookie.split('.') as [string, string, string, string]
  const forged = [
    `${other}.${device}.${issued}.${signature}`,
    `${account}.other-device.${issued}.${signature}`,
    `${account}.${device}.${Number(issued) + 1}.${signature}`,
    `${account}.${device}.${issued}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
    `${account}.${device}.${issued}`,
    `${cookie}.more`,
    '',
  ]
  for (const value of forged) assert.equal(readDeviceCookie(value, owner, key, now), null, value)
  assert.equal(readDeviceCookie(cookie, owner, deviceCookieKey('another-secret-of-thirty-two-characters!'), now), null, 'another key')
  assert.equal(readDeviceCookie(cookie, owner, key, now + DEVICE_COOKIE_MAX_AGE_SECONDS * 1000), device, 'good to the last day')
  assert.equal(readDeviceCookie(cookie, owner, key, now + (DEVICE_COOKIE_MAX_AGE_SECONDS + 1) * 1000), null, 'expired')
})
