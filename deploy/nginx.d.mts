// Types of deploy/nginx.mjs, for the tests written in TypeScript.
export declare const NGINX: string
export declare function hasNginx(): boolean
export declare function startNginx(options: { port: number; upstream: string; dir: string; cpu?: number }): Promise<{ url: string; stop: () => Promise<void> }>
