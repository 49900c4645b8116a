import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { trustedProxyList } from '../config'
import { UNVERIFIED, clientAddress, clientKey, clientOf, installClientAddressFilter } from './client-address'

// A real HTTP server in this process, as `next start` is: the filter sees each request as the server emits it.
// 127.0.0.2 plays a trusted proxy (all of 127/8 is this machine on Linux), 127.0.0.1 any client.

let server: http.Server
let port: number

before(async () => {
  installClientAddressFilter(trustedProxyList(['127.0.0.2']))
  server = http.createServer((request, response) => {
    response.end(JSON.stringify({ client: clientAddress(request.headers), forwardedFor: request.headers['x-forwarded-for'] ?? null }))
  })
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
  port = (server.address() as AddressInfo).port
})
after(() => server.close())

function get(from: string, headers: Record<string, string> = {}): Promise<{ client: string; forwardedFor: string | null }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, localAddress: from, headers }, (response) => {
      let body = ''
      response.on('data', (chunk) => (body += chunk))
      response.on('end', () => resolve(JSON.parse(body) as { client: string; forwardedFor: string | null }))
    })
    request.on('error', reject)
  })
}

test("from a client, X-Forwarded-For is dropped: the client is the socket's address, whatever it claims", async () => {
  assert.deepEqual(await get('127.0.0.1'), { client: '127.0.0.1', forwardedFor: null })
  assert.deepEqual(await get('127.0.0.1', { 'X-Forwarded-For': '203.0.113.7' }), { client: '127.0.0.1', forwardedFor: null })
  assert.deepEqual(await get('127.0.0.3', { 'X-Forwarded-For': '127.0.0.2, 203.0.113.7' }), { client: '127.0.0.3', forwardedFor: null })
})

test('from a trusted proxy, X-Forwarded-For is kept and names the client', async () => {
  assert.deepEqual(await get('127.0.0.2', { 'X-Forwarded-For': '203.0.113.7' }), { client: '203.0.113.7', forwardedFor: '203.0.113.7' })
  // What a client wrote itself comes first; the proxy appends the address it saw, which is the one believed.
  assert.equal((await get('127.0.0.2', { 'X-Forwarded-For': '198.51.100.1, 203.0.113.7' })).client, '203.0.113.7')
  assert.equal((await get('127.0.0.2')).client, '127.0.0.2', 'no header: the proxy itself')
})

test('a stamp the filter did not make counts for nothing', async () => {
  const { client } = await get('127.0.0.1', { 'X-Places-Client-Address': 'guess 203.0.113.9' })
  assert.equal(client, '127.0.0.1')
  assert.equal(clientAddress(new Headers({ 'x-places-client-address': 'guess 203.0.113.9' })), UNVERIFIED)
  assert.equal(clientAddress({}), UNVERIFIED)
})

test('a chain of trusted proxies is walked from the right; ports and IPv4-mapped addresses are read', () => {
  const trusted = trustedProxyList(['10.0.0.1', '::ffff:10.0.0.2'])
  assert.equal(clientOf('::ffff:10.0.0.1', '203.0.113.7, 10.0.0.2', trusted), '203.0.113.7')
  assert.equal(clientOf('10.0.0.1', '198.51.100.9, 203.0.113.7:4431', trusted), '203.0.113.7')
  assert.equal(clientOf('10.0.0.1', '[2001:DB8::7]:443', trusted), '2001:db8::7')
  assert.equal(clientOf('10.0.0.1', 'unknown', trusted), '10.0.0.1')
  assert.equal(clientOf('::ffff:192.0.2.5', '203.0.113.7', trusted), '192.0.2.5')
})

test("trusted proxies may be CIDR ranges: a load balancer's subnet, IPv4 and IPv6", () => {
  const trusted = trustedProxyList(['10.1.0.0/16', 'fd00:1::/32', '192.0.2.9'])
  assert.equal(clientOf('10.1.200.3', '203.0.113.7', trusted), '203.0.113.7')
  assert.equal(clientOf('10.2.0.1', '203.0.113.7', trusted), '10.2.0.1', 'outside the range: not a proxy')
  assert.equal(clientOf('fd00:1:ffff::5', '203.0.113.7, 10.1.0.9', trusted), '203.0.113.7', 'a chain through both ranges')
  assert.equal(clientOf('fd00:2::5', '203.0.113.7', trusted), 'fd00:2::5')
  assert.equal(clientOf('192.0.2.9', '203.0.113.8', trusted), '203.0.113.8')
  assert.equal(clientOf('192.0.2.10', '203.0.113.8', trusted), '192.0.2.10')
  assert.equal(clientOf('10.1.0.1', '203.0.113.7', trustedProxyList([])), '10.1.0.1', 'none trusted')
  // Written IPv4-mapped, an IPv4 address or range is read as IPv4: /104 is /8.
  const mapped = trustedProxyList(['::ffff:10.0.0.0/104', '::ffff:192.0.2.9'])
  assert.equal(clientOf('10.200.0.1', '203.0.113.7', mapped), '203.0.113.7')
  assert.equal(clientOf('192.0.2.9', '203.0.113.7', mapped), '203.0.113.7')
  assert.equal(clientOf('11.0.0.1', '203.0.113.7', mapped), '11.0.0.1')
  // Refused: what is no range, and what would trust every client (all addresses; an IPv6 range of the IPv4-mapped ones).
  for (const wrong of [
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    'fd00::/129',
    'proxy.internal',
    '10.0.0.0/x',
    '300.1.1.1',
    '0.0.0.0/0',
    '::/0',
    '::/32',
    '::ffff:0:0/96',
    '::ffff:10.0.0.1/32',
  ]) {
    assert.throws(() => trustedProxyList([wrong]), new RegExp(`not a proxy's IP address or CIDR range: ${wrong.replace(/[./]/g, '\\$&')}$`), wrong)
  }
})

test('IPv6 clients are counted by their /64, which one home or server is given whole', () => {
  assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64')
  assert.equal(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64')
  assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64')
  assert.equal(clientKey('::1'), '0:0:0:0::/64')
  assert.equal(clientKey('192.0.2.1'), '192.0.2.1')
  assert.equal(clientKey(UNVERIFIED), UNVERIFIED)
})
