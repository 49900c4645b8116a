// `npm run bench` sets BENCH_FLOOR_DIR: its build, kept apart in .next-bench, adds the framework-floor route
// (app/api/bench-floor/[name]/route.bench.ts); the production build has no such route. Its own tsconfig names its
// own generated types, so that the build leaves tsconfig.json as it is.
const benchFloor = Boolean(process.env.BENCH_FLOOR_DIR)

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The app draws its photos' sizes itself (lib/media/renditions.ts). Next's optimizer, unused, would serve a public
  // copy of any upload for hours after its post is unpublished: off, /_next/image is a 404.
  images: { unoptimized: true },
  ...(benchFloor
    ? { distDir: '.next-bench', pageExtensions: ['tsx', 'ts', 'jsx', 'js', 'bench.ts'], typescript: { tsconfigPath: 'tsconfig.bench.json' } }
    : {}),
  // ExifTool runs as a child process from the files of its package: load it from node_modules, not a bundle.
  serverExternalPackages: ['exiftool-vendored', 'exiftool-vendored.pl'],
  // Clients written for the WordPress plugin call /wp-json/places/v1/...: the same routes answer there.
  async rewrites() {
    return [{ source: '/wp-json/places/v1/:path*', destination: '/places/v1/:path*' }]
  },
  // On every answer; pages also get a Content-Security-Policy with a nonce (proxy.ts).
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
          { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
        ],
      },
      // Every answer but /embed, which other sites may frame (its CSP's frame-ancestors, proxy.ts, says who).
      { source: '/((?!embed/?$).*)', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] },
    ]
  },
}

export default nextConfig
