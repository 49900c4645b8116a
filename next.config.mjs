/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Clients written for the WordPress plugin call /wp-json/places/v1/...: the same routes answer there.
  async rewrites() {
    return [{ source: '/wp-json/places/v1/:path*', destination: '/places/v1/:path*' }]
  },
}

export default nextConfig
