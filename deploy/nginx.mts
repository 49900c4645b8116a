// Runs deploy/nginx.conf, as written, in front of a running Places server: for test/server/nginx.test.ts and the
// bench. The example's listen port, upstream and cache folder are replaced by the caller's; the smallest nginx.conf
// around it (nginxConf, which `bench --mapserver` puts around MapServer too) puts it in the http block, as its first
// comment says. Debian's nginx (/usr/sbin/nginx).
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const NGINX = '/usr/sbin/nginx'
const EXAMPLE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'nginx.conf')

export function hasNginx(): boolean {
  return spawnSync(NGINX, ['-v']).error === undefined
}

/**
 * The smallest nginx.conf for one worker in the foreground, its pid, error log (`error.log`) and temporary files in
 * `dir`, with `http` (directives of the http block) as its server.
 */
export function nginxConf(dir: string, http: string): string {
  return `${process.getuid?.() === 0 ? 'user root;' : ''}
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${http}
}
`
}

/**
 * Starts nginx with deploy/nginx.conf listening on 127.0.0.1:`port`, in front of `upstream` (host:port), keeping
 * its files in `dir`; resolves once it answers. `cpu`: the core to pin it to, where taskset is there.
 */
export async function startNginx({
  port,
  upstream,
  dir,
  cpu,
}: {
  port: number
  upstream: string
  dir: string
  cpu?: number
}): Promise<{ url: string; stop: () => Promise<void> }> {
  let example = readFileSync(EXAMPLE, 'utf8')
  const replacements: [string, string][] = [
    ['listen 80;', `listen 127.0.0.1:${port};`],
    ['server 127.0.0.1:3000;', `server ${upstream};`],
    ['/var/cache/nginx/places', path.join(dir, 'cache')],
  ]
  for (const [from, to] of replacements) {
    if (!example.includes(from)) throw new Error(`deploy/nginx.conf no longer has "${from}"`)
    example = example.replace(from, to)
  }
  writeFileSync(path.join(dir, 'places.conf'), example)
  writeFileSync(path.join(dir, 'nginx.conf'), nginxConf(dir, `include ${dir}/places.conf;`))
  const args = ['-p', dir, '-c', path.join(dir, 'nginx.conf')]
  const pinned = cpu !== undefined && spawnSync('taskset', ['-c', String(cpu), 'true']).status === 0
  const child = pinned ? spawn('taskset', ['-c', String(cpu), NGINX, ...args], { stdio: 'inherit' }) : spawn(NGINX, args, { stdio: 'inherit' })
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGQUIT')
    await once(child, 'exit')
  }
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${readFileSync(path.join(dir, 'error.log'), 'utf8')}`)
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    if (attempt > 100) {
      await stop()
      throw new Error('nginx did not answer within 10 s')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { url, stop }
}
