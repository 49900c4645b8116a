/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
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
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
          { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
        ],
      },
    ]
  },
}

export default nextConfig
