/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // ExifTool runs as a child process from the files of its package: load it from node_modules, not a bundle.
  serverExternalPackages: ['exiftool-vendored', 'exiftool-vendored.pl'],
  // Clients written for the WordPress plugin call /wp-json/places/v1/...: the same routes answer there.
  async rewrites() {
    return [{ source: '/wp-json/places/v1/:path*', destination: '/places/v1/:path*' }]
  },
}

export default nextConfig
