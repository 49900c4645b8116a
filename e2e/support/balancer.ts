import http from 'node:http'
import type { AddressInfo } from 'node:net'

// A round-robin load balancer for the tests: each request (not each connection) goes to the next instance in turn, so
// that a page, its scripts and the server actions it calls land on different instances, as they may behind any
// balancer. Server actions take turns of their own, so that saves alternate whatever other requests fall between
// them. The Host header is passed on: the instances see the address the browser used.

export type Balancer = {
  url: string
  /** the server actions (POSTs with a Next-Action header) each instance answered, in the order of `upstreams` */
  actions: number[]
  close: () => Promise<void>
}

export async function startRoundRobin(upstreams: string[]): Promise<Balancer> {
  const agent = new http.Agent({ keepAlive: true })
  const actions = upstreams.map(() => 0)
  let [next, nextAction] = [0, 0]
  const server = http.createServer((request, response) => {
    const isAction = request.method === 'POST' && !!request.headers['next-action']
    const turn = (isAction ? nextAction++ : next++) % upstreams.length
    if (isAction) actions[turn]!++
    const upstream = new URL(upstreams[turn]!)
    const forwarded = http.request(
      { agent, hostname: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers)
        answer.pipe(response)
      },
    )
    forwarded.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502).end(error.message)
      else response.destroy(error)
    })
    request.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    actions,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
        agent.destroy()
      }),
  }
}
